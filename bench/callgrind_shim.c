/*
 * The switch of the bench's instruction counts (bench/callgrind.py): valgrind's callgrind runs a
 * process with instrumentation off (--instr-atstart=no --collect-atstart=no), and the process
 * switches it on around each measured pass only, with these two functions, so start-up, imports,
 * reading the corpus and the warm-up pass are never counted; each pass is one numbered dump.
 *
 * The same file builds twice: a plain shared library for Python (ctypes), and with OM_NODE a
 * Node-API module (`process.dlopen`) exporting `start` and `stop`. The Node-API declarations are
 * written out here (its ABI is stable), so no Node headers are needed; only callgrind.h, which
 * Debian's valgrind package ships. Outside valgrind the client requests do nothing.
 */
#include <stddef.h>
#include <valgrind/callgrind.h>

void om_callgrind_start(void) {
    CALLGRIND_START_INSTRUMENTATION;
    CALLGRIND_TOGGLE_COLLECT;
}

/* Off again, and the counts so far written out (one numbered dump per pass) and zeroed. */
void om_callgrind_stop(void) {
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS;
    CALLGRIND_STOP_INSTRUMENTATION;
}

#ifdef OM_NODE
typedef struct napi_env__ *napi_env;
typedef struct napi_value__ *napi_value;
typedef struct napi_callback_info__ *napi_callback_info;
typedef napi_value (*napi_callback)(napi_env, napi_callback_info);
extern int napi_create_function(napi_env, const char *, size_t, napi_callback, void *, napi_value *);
extern int napi_set_named_property(napi_env, napi_value, const char *, napi_value);
extern int napi_get_undefined(napi_env, napi_value *);

static napi_value undefined_value(napi_env env) {
    napi_value undefined;
    napi_get_undefined(env, &undefined);
    return undefined;
}

static napi_value js_start(napi_env env, napi_callback_info info) {
    (void)info;
    om_callgrind_start();
    return undefined_value(env);
}

static napi_value js_stop(napi_env env, napi_callback_info info) {
    (void)info;
    om_callgrind_stop();
    return undefined_value(env);
}

napi_value napi_register_module_v1(napi_env env, napi_value exports) {
    napi_value f;
    if (napi_create_function(env, "start", 5, js_start, NULL, &f) != 0) return NULL;
    napi_set_named_property(env, exports, "start", f);
    if (napi_create_function(env, "stop", 4, js_stop, NULL, &f) != 0) return NULL;
    napi_set_named_property(env, exports, "stop", f);
    return exports;
}
#endif
