// hipRTC (hip/hiprtc.h of HIP 5.2) for the emulator: programs keep their text, headers and name
// expressions here; hiprtcCompileProgram compiles them with the real clang-16 for gfx1100 through
// the Python side (cass.runner.emulator.hiprtc), and hiprtcGetCode's code object is what
// hipModuleLoadData takes.
#include "runtime.h"  // first: it selects the AMD platform

#include <hip/hip_version.h>
#include <hip/hiprtc.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

struct _hiprtcProgram {
    std::string source;
    std::string name;
    std::vector<std::string> headers;
    std::vector<std::string> include_names;
    std::vector<std::string> name_expressions;
    bool compiled = false;
    std::string log;
    std::string code;
    std::map<std::string, std::string> lowered;
};

const char* hiprtcGetErrorString(hiprtcResult result) {
    switch (result) {
        case HIPRTC_SUCCESS: return "HIPRTC_SUCCESS";
        case HIPRTC_ERROR_OUT_OF_MEMORY: return "HIPRTC_ERROR_OUT_OF_MEMORY";
        case HIPRTC_ERROR_PROGRAM_CREATION_FAILURE: return "HIPRTC_ERROR_PROGRAM_CREATION_FAILURE";
        case HIPRTC_ERROR_INVALID_INPUT: return "HIPRTC_ERROR_INVALID_INPUT";
        case HIPRTC_ERROR_INVALID_PROGRAM: return "HIPRTC_ERROR_INVALID_PROGRAM";
        case HIPRTC_ERROR_INVALID_OPTION: return "HIPRTC_ERROR_INVALID_OPTION";
        case HIPRTC_ERROR_COMPILATION: return "HIPRTC_ERROR_COMPILATION";
        case HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE:
            return "HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE";
        case HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION:
            return "HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION";
        case HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION:
            return "HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION";
        case HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID:
            return "HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID";
        case HIPRTC_ERROR_INTERNAL_ERROR: return "HIPRTC_ERROR_INTERNAL_ERROR";
    }
    return "Invalid HIPRTC error code";
}

hiprtcResult hiprtcVersion(int* major, int* minor) {
    if (!major || !minor) return HIPRTC_ERROR_INVALID_INPUT;
    *major = HIP_VERSION_MAJOR;
    *minor = HIP_VERSION_MINOR;
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcCreateProgram(hiprtcProgram* prog, const char* src, const char* name,
                                 int numHeaders, const char** headers,
                                 const char** includeNames) {
    if (!prog || !src || numHeaders < 0 || (numHeaders > 0 && (!headers || !includeNames)))
        return HIPRTC_ERROR_INVALID_INPUT;
    _hiprtcProgram* p = new _hiprtcProgram;
    p->source = src;
    p->name = name ? name : "";
    for (int i = 0; i < numHeaders; ++i) {
        if (!headers[i] || !includeNames[i]) {
            delete p;
            return HIPRTC_ERROR_INVALID_INPUT;
        }
        p->headers.push_back(headers[i]);
        p->include_names.push_back(includeNames[i]);
    }
    *prog = p;
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcDestroyProgram(hiprtcProgram* prog) {
    if (!prog || !*prog) return HIPRTC_ERROR_INVALID_INPUT;
    delete *prog;
    *prog = nullptr;
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char* name_expression) {
    if (!prog || !name_expression || !*name_expression) return HIPRTC_ERROR_INVALID_INPUT;
    if (prog->compiled) return HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
    prog->name_expressions.push_back(name_expression);
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int numOptions, const char** options) {
    if (!prog) return HIPRTC_ERROR_INVALID_PROGRAM;
    if (numOptions < 0 || (numOptions > 0 && !options)) return HIPRTC_ERROR_INVALID_INPUT;
    std::vector<const char*> headers, names;
    for (size_t i = 0; i < prog->headers.size(); ++i) {
        headers.push_back(prog->headers[i].c_str());
        names.push_back(prog->include_names[i].c_str());
    }
    CassRtcRequest rq{prog->source.c_str(), prog->name.c_str(), (int)headers.size(),
                      headers.data(),       names.data(),       numOptions,
                      options,              prog->name_expressions};
    std::vector<std::string> lowered;
    int status = cass_bridge_rtc_compile(rq, &prog->log, &prog->code, &lowered);
    prog->compiled = true;
    prog->lowered.clear();
    if (status == HIPRTC_SUCCESS)
        for (size_t i = 0; i < lowered.size() && i < prog->name_expressions.size(); ++i)
            prog->lowered[prog->name_expressions[i]] = lowered[i];
    else
        prog->code.clear();
    return (hiprtcResult)status;
}

hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char* name_expression,
                                  const char** lowered_name) {
    if (!prog || !name_expression || !lowered_name) return HIPRTC_ERROR_INVALID_INPUT;
    if (!prog->compiled) return HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
    auto it = prog->lowered.find(name_expression);
    if (it == prog->lowered.end()) return HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID;
    *lowered_name = it->second.c_str();
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t* logSizeRet) {
    if (!prog || !logSizeRet) return HIPRTC_ERROR_INVALID_INPUT;
    *logSizeRet = prog->log.size() + 1;
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char* log) {
    if (!prog || !log) return HIPRTC_ERROR_INVALID_INPUT;
    memcpy(log, prog->log.c_str(), prog->log.size() + 1);
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t* codeSizeRet) {
    if (!prog || !codeSizeRet) return HIPRTC_ERROR_INVALID_INPUT;
    if (!prog->compiled || prog->code.empty()) return HIPRTC_ERROR_INVALID_PROGRAM;
    *codeSizeRet = prog->code.size();
    return HIPRTC_SUCCESS;
}

hiprtcResult hiprtcGetCode(hiprtcProgram prog, char* code) {
    if (!prog || !code) return HIPRTC_ERROR_INVALID_INPUT;
    if (!prog->compiled || prog->code.empty()) return HIPRTC_ERROR_INVALID_PROGRAM;
    memcpy(code, prog->code.data(), prog->code.size());
    return HIPRTC_SUCCESS;
}
