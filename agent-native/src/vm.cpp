#include "vm.h"

#include <cstdio>
#include <string>

#include "capabilities.h"

std::atomic<jvmtiEnv*> VM::_jvmti{nullptr};
jvmtiCapabilities VM::_capabilities{};

jint VM::init(JavaVM* vm, const Arguments& args, bool live) {
    jvmtiEnv* jvmti = nullptr;
    if (vm->GetEnv(reinterpret_cast<void**>(&jvmti), JVMTI_VERSION_1_2) != JNI_OK) {
        std::fprintf(stderr, "dist agent: this JVM offers no JVMTI 1.2 environment\n");
        return JNI_ERR;
    }

    jvmtiCapabilities potential{};
    jvmti->GetPotentialCapabilities(&potential);
    jvmtiCapabilities requested = requestedCapabilities(args);
    // One at a time, so that a capability refused despite being offered (another
    // agent may hold an exclusive one) costs only itself.
    for (size_t i = 0; i < WANTED_CAPABILITY_COUNT; i++) {
        if (!WANTED_CAPABILITIES[i].isSet(requested) || !WANTED_CAPABILITIES[i].isSet(potential)) continue;
        jvmtiCapabilities one{};
        WANTED_CAPABILITIES[i].set(one);
        jvmti->AddCapabilities(&one);
    }
    jvmti->GetCapabilities(&_capabilities);

    if (args.verbose) {
        std::fprintf(stderr, "dist agent: capabilities obtained: %s\n",
                     capabilityNames(_capabilities).c_str());
    }
    std::string missing = capabilityNames(missingCapabilities(requested, _capabilities));
    if (!missing.empty()) {
        std::fprintf(stderr, "dist agent: capabilities not available: %s%s\n", missing.c_str(),
                     live && !_capabilities.can_access_local_variables
                         ? " (local variable access needs the agent loaded at startup with -agentpath)"
                         : "");
    }

    _jvmti.store(jvmti, std::memory_order_release);
    return JNI_OK;
}
