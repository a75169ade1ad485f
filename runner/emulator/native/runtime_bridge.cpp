// Bridge from the C++ HIP shim to the Python emulator core (cass.runner.emulator.bridge),
// through an embedded CPython started lazily at the first launch or symbol access.
#include <Python.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

#include "runtime.h"

#ifndef CASS_PYTHON_EXECUTABLE
#define CASS_PYTHON_EXECUTABLE "python3"
#endif

static const int kFaultExitCode = 70;
static std::recursive_mutex g_lock;
static PyObject* g_bridge = nullptr;

[[noreturn]] void cass_fatal(const char* what, const char* detail) {
    fflush(stdout);
    fprintf(stderr, "cass HIP runtime: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    fflush(stderr);
    _exit(kFaultExitCode);
}

static void finish_at_exit(void) {
    std::lock_guard<std::recursive_mutex> guard(g_lock);
    if (!g_bridge) return;
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject* r = PyObject_CallMethod(g_bridge, "finish", nullptr);
    if (!r) PyErr_Print();
    Py_XDECREF(r);
    PyGILState_Release(gil);
}

static void start_python(void) {
    const char* exe = getenv("CASS_EMULATOR_PYTHON");
    if (!exe || !*exe) exe = CASS_PYTHON_EXECUTABLE;
    PyConfig config;
    PyConfig_InitPythonConfig(&config);
    config.install_signal_handlers = 0;
    config.parse_argv = 0;
    PyStatus st = PyConfig_SetBytesString(&config, &config.program_name, exe);
    if (!PyStatus_Exception(st)) st = Py_InitializeFromConfig(&config);
    PyConfig_Clear(&config);
    if (PyStatus_Exception(st)) cass_fatal("cannot start the embedded Python emulator", st.err_msg);
    g_bridge = PyImport_ImportModule("cass.runner.emulator.bridge");
    if (!g_bridge) {
        PyErr_Print();
        cass_fatal("cannot import cass.runner.emulator.bridge", exe);
    }
    atexit(finish_at_exit);
    PyEval_SaveThread();
}

// Calls bridge.<method>(*args) with the GIL held; returns a new reference or dies on error.
static PyObject* call_bridge(const char* method, const char* fmt, ...) {
    if (!g_bridge) start_python();
    PyGILState_STATE gil = PyGILState_Ensure();
    va_list ap;
    va_start(ap, fmt);
    PyObject* args = Py_VaBuildValue(fmt, ap);
    va_end(ap);
    PyObject* fn = PyObject_GetAttrString(g_bridge, method);
    PyObject* r = (fn && args) ? PyObject_CallObject(fn, args) : nullptr;
    Py_XDECREF(fn);
    Py_XDECREF(args);
    if (!r) {
        fflush(stdout);
        if (PyErr_ExceptionMatches(PyExc_MemoryError)) {  // the run's memory limit: one line
            PyErr_Clear();
            PyGILState_Release(gil);
            cass_fatal("the emulator ran out of memory (raise the run's memory limit) in", method);
        }
        PyErr_Print();
        PyGILState_Release(gil);
        cass_fatal("emulator internal error in", method);
    }
    PyGILState_Release(gil);
    return r;
}

static long long take_int(PyObject* r) {
    PyGILState_STATE gil = PyGILState_Ensure();
    long long v = PyLong_AsLongLong(r);
    Py_DECREF(r);
    PyGILState_Release(gil);
    return v;
}

int cass_bridge_load_fatbin(const void* binary) {
    std::lock_guard<std::recursive_mutex> guard(g_lock);
    return (int)take_int(call_bridge("load_fatbin", "(K)", (unsigned long long)(uintptr_t)binary));
}

int cass_bridge_load_image(const void* image) {
    std::lock_guard<std::recursive_mutex> guard(g_lock);
    return (int)take_int(call_bridge("load_image", "(K)", (unsigned long long)(uintptr_t)image));
}

int cass_bridge_launch(int module_id, const char* kernel, dim3 g, dim3 b, size_t shmem,
                       void** args, const void* blob, size_t blob_size) {
    std::lock_guard<std::recursive_mutex> guard(g_lock);
    fflush(stdout);
    PyObject* r = call_bridge("launch", "(is(III)(III)KKKK)", module_id, kernel, g.x, g.y, g.z,
                              b.x, b.y, b.z, (unsigned long long)shmem,
                              (unsigned long long)(uintptr_t)args,
                              (unsigned long long)(uintptr_t)blob, (unsigned long long)blob_size);
    long long status = take_int(r);
    if (status == 2) {  // a fault was reported on stderr: stop like a GPU memory fault does
        fflush(stdout);
        finish_at_exit();
        fflush(stderr);
        _exit(kFaultExitCode);
    }
    return (int)status;
}

int cass_bridge_symbol(int module_id, const char* name, uint64_t* address, uint64_t* size) {
    std::lock_guard<std::recursive_mutex> guard(g_lock);
    PyObject* r = call_bridge("symbol", "(is)", module_id, name);
    PyGILState_STATE gil = PyGILState_Ensure();
    int ok = 0;
    if (PyTuple_Check(r) && PyTuple_Size(r) == 2) {
        *address = PyLong_AsUnsignedLongLong(PyTuple_GetItem(r, 0));
        *size = PyLong_AsUnsignedLongLong(PyTuple_GetItem(r, 1));
        ok = 1;
    }
    Py_DECREF(r);
    PyGILState_Release(gil);
    return ok;
}

int cass_bridge_kernel_attrs(int module_id, const char* name, hipFuncAttributes* attrs) {
    std::lock_guard<std::recursive_mutex> guard(g_lock);
    PyObject* r = call_bridge("kernel_attributes", "(is)", module_id, name);
    PyGILState_STATE gil = PyGILState_Ensure();
    int ok = 0;
    if (PyTuple_Check(r) && PyTuple_Size(r) == 4) {
        memset(attrs, 0, sizeof(*attrs));
        attrs->sharedSizeBytes = PyLong_AsSize_t(PyTuple_GetItem(r, 0));
        attrs->localSizeBytes = PyLong_AsSize_t(PyTuple_GetItem(r, 1));
        attrs->numRegs = (int)PyLong_AsLong(PyTuple_GetItem(r, 2));
        attrs->maxThreadsPerBlock = (int)PyLong_AsLong(PyTuple_GetItem(r, 3));
        attrs->maxDynamicSharedSizeBytes = 65536 - (int)attrs->sharedSizeBytes;
        attrs->binaryVersion = 110;
        attrs->ptxVersion = 110;
        ok = 1;
    }
    Py_DECREF(r);
    PyGILState_Release(gil);
    return ok;
}

double cass_bridge_device_ns(void) {
    std::lock_guard<std::recursive_mutex> guard(g_lock);
    if (!g_bridge) return 0.0;
    PyObject* r = call_bridge("device_ns", "()");
    PyGILState_STATE gil = PyGILState_Ensure();
    double v = PyFloat_AsDouble(r);
    Py_DECREF(r);
    PyGILState_Release(gil);
    return v;
}

static PyObject* bytes_list(int count, const char* const* items) {
    PyObject* list = PyList_New(count);
    for (int i = 0; i < count; ++i)
        PyList_SET_ITEM(list, i, PyBytes_FromString(items && items[i] ? items[i] : ""));
    return list;
}

int cass_bridge_rtc_compile(const CassRtcRequest& rq, std::string* log, std::string* code,
                            std::vector<std::string>* lowered) {
    std::lock_guard<std::recursive_mutex> guard(g_lock);
    if (!g_bridge) start_python();
    PyGILState_STATE gil = PyGILState_Ensure();
    PyObject* headers = PyList_New(rq.num_headers);
    for (int i = 0; i < rq.num_headers; ++i)
        PyList_SET_ITEM(headers, i,
                        Py_BuildValue("(yy)", rq.include_names[i] ? rq.include_names[i] : "",
                                      rq.headers[i] ? rq.headers[i] : ""));
    PyObject* options = bytes_list(rq.num_options, rq.options);
    std::vector<const char*> names;
    for (const std::string& n : rq.name_expressions) names.push_back(n.c_str());
    PyObject* exprs = bytes_list((int)names.size(), names.data());
    PyObject* r = PyObject_CallMethod(g_bridge, "rtc_compile", "(yyNNN)", rq.source, rq.name,
                                      headers, options, exprs);
    int status = 11;  // HIPRTC_ERROR_INTERNAL_ERROR
    if (r && PyTuple_Check(r) && PyTuple_Size(r) == 4) {
        status = (int)PyLong_AsLong(PyTuple_GetItem(r, 0));
        PyObject* lg = PyTuple_GetItem(r, 1);
        PyObject* cd = PyTuple_GetItem(r, 2);
        PyObject* lw = PyTuple_GetItem(r, 3);
        log->assign(PyBytes_AsString(lg), PyBytes_Size(lg));
        code->assign(PyBytes_AsString(cd), PyBytes_Size(cd));
        lowered->clear();
        for (Py_ssize_t i = 0; i < PyList_Size(lw); ++i)
            lowered->push_back(PyBytes_AsString(PyList_GetItem(lw, i)));
    } else {
        fflush(stdout);
        PyErr_Print();
        log->assign("cass emulator: internal error in hipRTC (see stderr)\n");
    }
    Py_XDECREF(r);
    PyGILState_Release(gil);
    return status;
}
