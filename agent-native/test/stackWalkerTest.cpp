#include <gtest/gtest.h>

#include "stackWalker.h"

TEST(BinaryClassName, PlainClass) {
    EXPECT_EQ("java.lang.String", binaryClassName("Ljava/lang/String;"));
}

TEST(BinaryClassName, DefaultPackageAndNestedClass) {
    EXPECT_EQ("Main", binaryClassName("LMain;"));
    EXPECT_EQ("java.util.Map$Entry", binaryClassName("Ljava/util/Map$Entry;"));
}

TEST(BinaryClassName, HiddenClassMatchesClassGetName) {
    EXPECT_EQ("java.lang.invoke.LambdaForm$MH/0x0000000800c04000",
              binaryClassName("Ljava/lang/invoke/LambdaForm$MH.0x0000000800c04000;"));
}

TEST(BinaryClassName, ArrayMatchesClassGetName) {
    EXPECT_EQ("[Ljava.lang.Object;", binaryClassName("[Ljava/lang/Object;"));
    EXPECT_EQ("[I", binaryClassName("[I"));
}

TEST(LineNumberAt, PicksGreatestStartNotAfterBci) {
    // Deliberately unsorted, as JVMTI does not promise order.
    const jvmtiLineNumberEntry table[] = {{10, 12}, {0, 10}, {4, 11}, {20, 15}};
    EXPECT_EQ(10, lineNumberAt(table, 4, 0));
    EXPECT_EQ(10, lineNumberAt(table, 4, 3));
    EXPECT_EQ(11, lineNumberAt(table, 4, 4));
    EXPECT_EQ(12, lineNumberAt(table, 4, 19));
    EXPECT_EQ(15, lineNumberAt(table, 4, 100));
}

TEST(LineNumberAt, UnknownBeforeFirstEntryOrWithoutTable) {
    const jvmtiLineNumberEntry table[] = {{5, 30}};
    EXPECT_EQ(-1, lineNumberAt(table, 1, 2));
    EXPECT_EQ(-1, lineNumberAt(nullptr, 0, 7));
}
