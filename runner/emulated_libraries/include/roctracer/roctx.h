/* roctx (ROCm roctracer's code annotation API, ROC-TX 1.0) for cass's emulated verification.
 * The declarations follow the API of AMD's public roctracer repository (inc/roctx.h); the
 * functions are cass's (roctx.hip): ranges and marks are accepted and counted, and written to
 * stderr only when CASS_ROCTX_TRACE is set. Debian 12 does not package roctracer. */
#ifndef CASS_ROCTX_H
#define CASS_ROCTX_H

#include <stdint.h>

#define ROCTX_VERSION_MAJOR 1
#define ROCTX_VERSION_MINOR 0

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t roctx_range_id_t;

uint32_t roctx_version_major(void);
uint32_t roctx_version_minor(void);
const char* roctracer_error_string(void);

void roctxMarkA(const char* message);
int roctxRangePushA(const char* message);  /* the 0-based level of the new range */
int roctxRangePop(void);                    /* the level of the ended range; negative: none */
roctx_range_id_t roctxRangeStartA(const char* message);
void roctxRangeStop(roctx_range_id_t id);

#define roctxMark(message) roctxMarkA(message)
#define roctxRangePush(message) roctxRangePushA(message)
#define roctxRangeStart(message) roctxRangeStartA(message)

#ifdef __cplusplus
}
#endif

#endif
