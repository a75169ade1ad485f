// The CUDA Samples timer calls Rodinia's cfd uses (sdkCreateTimer, sdkStartTimer, sdkStopTimer,
// sdkGetAverageTimerValue), on std::chrono. cass's own, for compiling cfd.
#pragma once
#include <chrono>

struct StopWatchInterface {
  std::chrono::steady_clock::time_point started;
  double total_ms = 0;
  int stops = 0;
};

inline bool sdkCreateTimer(StopWatchInterface** timer) {
  *timer = new StopWatchInterface();
  return true;
}
inline bool sdkStartTimer(StopWatchInterface** timer) {
  (*timer)->started = std::chrono::steady_clock::now();
  return true;
}
inline bool sdkStopTimer(StopWatchInterface** timer) {
  std::chrono::duration<double, std::milli> ms = std::chrono::steady_clock::now() - (*timer)->started;
  (*timer)->total_ms += ms.count();
  (*timer)->stops += 1;
  return true;
}
inline float sdkGetAverageTimerValue(StopWatchInterface** timer) {
  return (*timer)->stops ? (float)((*timer)->total_ms / (*timer)->stops) : 0.0f;
}
