#include <jni.h>

#include <cstdio>
#include <string>

#include "arguments.h"
#include "vm.h"

namespace {

jint start(JavaVM* vm, const char* options, bool live) {
    Arguments args;
    std::string error = args.parse(options);
    if (!error.empty()) {
        std::fprintf(stderr, "dist agent: %s\n", error.c_str());
        return JNI_ERR;
    }
    // Loading the library again (a second -agentpath, a repeated jcmd
    // JVMTI.agent_load) reaches the same code and globals: keep the environment
    // the natives already use.
    if (VM::jvmti() != nullptr) return JNI_OK;
    return VM::init(vm, args, live);
}

} // namespace

extern "C" JNIEXPORT jint JNICALL Agent_OnLoad(JavaVM* vm, char* options, void*) {
    return start(vm, options, false);
}

extern "C" JNIEXPORT jint JNICALL Agent_OnAttach(JavaVM* vm, char* options, void*) {
    return start(vm, options, true);
}
