#ifndef DIST_CAPABILITIES_H
#define DIST_CAPABILITIES_H

#include <jvmti.h>

#include <cstddef>
#include <string>

// jvmtiCapabilities is a struct of bit-fields, which cannot be addressed by
// pointer-to-member; each entry therefore carries its own accessors.
struct Capability {
    const char* name;  // the jvmtiCapabilities field name, as reported to Java
    void (*set)(jvmtiCapabilities& caps);
    bool (*isSet)(const jvmtiCapabilities& caps);
};

// What dist requests, in the order NativeAgent.WANTED_CAPABILITIES lists them.
extern const Capability WANTED_CAPABILITIES[];
extern const size_t WANTED_CAPABILITY_COUNT;

// Comma-separated names of the wanted capabilities whose bit in caps equals
// present; "" when there are none.
std::string capabilityNames(const jvmtiCapabilities& caps, bool present);

#endif // DIST_CAPABILITIES_H
