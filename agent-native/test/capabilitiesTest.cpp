#include <gtest/gtest.h>

#include <cstring>
#include <set>
#include <string>

#include "capabilities.h"

namespace {

const Capability* find(const char* name) {
    for (size_t i = 0; i < WANTED_CAPABILITY_COUNT; i++) {
        if (std::strcmp(WANTED_CAPABILITIES[i].name, name) == 0) return &WANTED_CAPABILITIES[i];
    }
    return nullptr;
}

bool allZero(const jvmtiCapabilities& caps) {
    jvmtiCapabilities zero{};
    return std::memcmp(&caps, &zero, sizeof(caps)) == 0;
}

} // namespace

TEST(Capabilities, TableListsExactlyWhatDistNeedsInJavaOrder) {
    const char* expected[] = {
        "can_access_local_variables",      "can_get_line_numbers",
        "can_get_source_file_name",        "can_tag_objects",
        "can_generate_object_free_events", "can_get_current_thread_cpu_time",
        "can_get_thread_cpu_time",
    };
    ASSERT_EQ(sizeof(expected) / sizeof(expected[0]), WANTED_CAPABILITY_COUNT);
    for (size_t i = 0; i < WANTED_CAPABILITY_COUNT; i++) {
        EXPECT_STREQ(expected[i], WANTED_CAPABILITIES[i].name);
    }
}

TEST(Capabilities, EachEntrySetsOnlyItsOwnBit) {
    std::set<std::string> names;
    for (size_t i = 0; i < WANTED_CAPABILITY_COUNT; i++) {
        jvmtiCapabilities caps{};
        WANTED_CAPABILITIES[i].set(caps);
        EXPECT_FALSE(allZero(caps)) << WANTED_CAPABILITIES[i].name;
        for (size_t j = 0; j < WANTED_CAPABILITY_COUNT; j++) {
            EXPECT_EQ(i == j, WANTED_CAPABILITIES[j].isSet(caps))
                << "setting " << WANTED_CAPABILITIES[i].name << ", reading "
                << WANTED_CAPABILITIES[j].name;
        }
        names.insert(WANTED_CAPABILITIES[i].name);
    }
    EXPECT_EQ(WANTED_CAPABILITY_COUNT, names.size());
}

TEST(Capabilities, NamesMatchTheJvmtiFields) {
    jvmtiCapabilities caps{};
    find("can_access_local_variables")->set(caps);
    EXPECT_EQ(1u, caps.can_access_local_variables);
    find("can_generate_object_free_events")->set(caps);
    EXPECT_EQ(1u, caps.can_generate_object_free_events);
    find("can_get_thread_cpu_time")->set(caps);
    EXPECT_EQ(1u, caps.can_get_thread_cpu_time);
    EXPECT_EQ(0u, caps.can_get_current_thread_cpu_time);
}

TEST(Capabilities, NamesListTheWantedBitsThatAreSet) {
    jvmtiCapabilities caps{};
    caps.can_tag_objects = 1;
    caps.can_get_line_numbers = 1;
    caps.can_pop_frame = 1;  // not wanted, so never reported
    EXPECT_EQ("can_get_line_numbers, can_tag_objects", capabilityNames(caps));
    jvmtiCapabilities none{};
    EXPECT_EQ("", capabilityNames(none));
}

TEST(Capabilities, LocalVariableAccessIsRequestedOnlyWhenAskedFor) {
    Arguments cheap;
    jvmtiCapabilities requested = requestedCapabilities(cheap);
    EXPECT_EQ("can_get_line_numbers, can_get_source_file_name, can_tag_objects, "
              "can_generate_object_free_events, can_get_current_thread_cpu_time, "
              "can_get_thread_cpu_time",
              capabilityNames(requested));
    Arguments locals;
    ASSERT_EQ("", locals.parse("locals"));
    jvmtiCapabilities all = requestedCapabilities(locals);
    EXPECT_EQ(1u, all.can_access_local_variables);
    for (size_t i = 0; i < WANTED_CAPABILITY_COUNT; i++) {
        EXPECT_TRUE(WANTED_CAPABILITIES[i].isSet(all)) << WANTED_CAPABILITIES[i].name;
    }
}

TEST(Capabilities, MissingIsWhatWasRequestedAndNotObtained) {
    jvmtiCapabilities requested{};
    requested.can_access_local_variables = 1;
    requested.can_tag_objects = 1;
    jvmtiCapabilities obtained{};
    obtained.can_tag_objects = 1;
    obtained.can_get_line_numbers = 1;  // obtained without being requested: not missing either way
    EXPECT_EQ("can_access_local_variables", capabilityNames(missingCapabilities(requested, obtained)));
    EXPECT_EQ("", capabilityNames(missingCapabilities(obtained, obtained)));
}
