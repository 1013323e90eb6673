#include "capabilities.h"

// Keeps the reported name and the bit it stands for from ever disagreeing.
#define DIST_CAPABILITY(field)                                               \
    {                                                                        \
        #field, [](jvmtiCapabilities& caps) { caps.field = 1; },             \
            [](const jvmtiCapabilities& caps) { return caps.field != 0; }    \
    }

const Capability WANTED_CAPABILITIES[] = {
    DIST_CAPABILITY(can_access_local_variables),
    DIST_CAPABILITY(can_get_line_numbers),
    DIST_CAPABILITY(can_get_source_file_name),
    DIST_CAPABILITY(can_tag_objects),
    DIST_CAPABILITY(can_generate_object_free_events),
    DIST_CAPABILITY(can_get_current_thread_cpu_time),
    DIST_CAPABILITY(can_get_thread_cpu_time),
};

const size_t WANTED_CAPABILITY_COUNT = sizeof(WANTED_CAPABILITIES) / sizeof(WANTED_CAPABILITIES[0]);

jvmtiCapabilities requestedCapabilities(const Arguments& args) {
    jvmtiCapabilities requested{};
    for (size_t i = 0; i < WANTED_CAPABILITY_COUNT; i++) {
        WANTED_CAPABILITIES[i].set(requested);
    }
    requested.can_access_local_variables = args.locals ? 1 : 0;
    return requested;
}

jvmtiCapabilities missingCapabilities(const jvmtiCapabilities& requested, const jvmtiCapabilities& obtained) {
    jvmtiCapabilities missing{};
    for (size_t i = 0; i < WANTED_CAPABILITY_COUNT; i++) {
        if (WANTED_CAPABILITIES[i].isSet(requested) && !WANTED_CAPABILITIES[i].isSet(obtained)) {
            WANTED_CAPABILITIES[i].set(missing);
        }
    }
    return missing;
}

std::string capabilityNames(const jvmtiCapabilities& caps) {
    std::string result;
    for (size_t i = 0; i < WANTED_CAPABILITY_COUNT; i++) {
        if (!WANTED_CAPABILITIES[i].isSet(caps)) continue;
        if (!result.empty()) result += ", ";
        result += WANTED_CAPABILITIES[i].name;
    }
    return result;
}
