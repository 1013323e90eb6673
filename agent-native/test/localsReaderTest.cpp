#include <gtest/gtest.h>

#include <vector>

#include "localsReader.h"

namespace {

std::string codes(const std::vector<SlotType>& types) {
    std::string result;
    for (SlotType type : types) result += static_cast<char>(type);
    return result;
}

} // namespace

TEST(SlotTypes, EveryCodeParses) {
    std::vector<SlotType> types;
    ASSERT_EQ("", parseSlotTypes("IJ-FD-L-", types));
    std::vector<SlotType> expected = {SlotType::Int,    SlotType::Long, SlotType::Skip,
                                      SlotType::Float,  SlotType::Double, SlotType::Skip,
                                      SlotType::Object, SlotType::Skip};
    EXPECT_EQ(expected, types);
}

TEST(SlotTypes, EmptySpecMeansNoSlots) {
    std::vector<SlotType> types = {SlotType::Int};
    EXPECT_EQ("", parseSlotTypes("", types));
    EXPECT_TRUE(types.empty());
}

TEST(SlotTypes, LayoutOfStaticMethodWithMixedParameters) {
    // static m(int, long, double, Object, boolean): slots 0, 1-2, 3-4, 5, 6.
    std::vector<SlotType> types;
    ASSERT_EQ("", parseSlotTypes("IJ-D-LI", types));
    EXPECT_EQ("IJ-D-LI", codes(types));
    EXPECT_EQ(7u, types.size());
}

TEST(SlotTypes, UnknownCodeNamesSlotAndCharacter) {
    std::vector<SlotType> types;
    EXPECT_EQ("slot 2: invalid slot type 'Z' (expected one of I J F D L -)",
              parseSlotTypes("IIZ", types));
    EXPECT_EQ("slot 0: invalid slot type 'i' (expected one of I J F D L -)",
              parseSlotTypes("i", types));
}

TEST(SlotTypes, UnprintableCodeIsShownInHex) {
    std::vector<SlotType> types;
    EXPECT_EQ("slot 1: invalid slot type character 0x20 (expected one of I J F D L -)",
              parseSlotTypes("I I", types));
    // U+00E9 in (modified) UTF-8 is C3 A9.
    EXPECT_EQ("slot 0: invalid slot type character 0xc3 (expected one of I J F D L -)",
              parseSlotTypes("\xc3\xa9", types));
}

TEST(SlotTypes, WideTypeNeedsDashForSecondSlot) {
    std::vector<SlotType> types;
    EXPECT_EQ("slot 1: 'J' takes two slots, so slot 2 must be '-'", parseSlotTypes("IJI", types));
    EXPECT_EQ("slot 0: 'D' takes two slots, so slot 1 must be '-'", parseSlotTypes("D", types));
    EXPECT_EQ("slot 0: 'J' takes two slots, so slot 1 must be '-'", parseSlotTypes("JJ--", types));
}

TEST(SlotTypes, DashAloneIsAnySkippedSlot) {
    std::vector<SlotType> types;
    ASSERT_EQ("", parseSlotTypes("--L", types));
    EXPECT_EQ("--L", codes(types));
}
