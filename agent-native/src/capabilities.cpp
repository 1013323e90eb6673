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

std::string capabilityNames(const jvmtiCapabilities& caps, bool present) {
    std::string result;
    for (size_t i = 0; i < WANTED_CAPABILITY_COUNT; i++) {
        if (WANTED_CAPABILITIES[i].isSet(caps) != present) continue;
        if (!result.empty()) result += ", ";
        result += WANTED_CAPABILITIES[i].name;
    }
    return result;
}
