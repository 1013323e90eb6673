#include <gtest/gtest.h>

#include "arguments.h"

TEST(Arguments, NoOptionsMeansDefaults) {
    Arguments args;
    EXPECT_EQ("", args.parse(nullptr));
    EXPECT_FALSE(args.verbose);
    EXPECT_EQ("", args.parse(""));
    EXPECT_FALSE(args.verbose);
}

TEST(Arguments, BareKeyMeansTrue) {
    Arguments args;
    EXPECT_EQ("", args.parse("verbose"));
    EXPECT_TRUE(args.verbose);
}

TEST(Arguments, ExplicitBooleans) {
    Arguments args;
    EXPECT_EQ("", args.parse("verbose=true"));
    EXPECT_TRUE(args.verbose);
    EXPECT_EQ("", args.parse("verbose=false"));
    EXPECT_FALSE(args.verbose);
}

TEST(Arguments, LocalsIsOffUnlessAskedFor) {
    Arguments args;
    EXPECT_EQ("", args.parse("verbose"));
    EXPECT_FALSE(args.locals);
    EXPECT_EQ("", args.parse("verbose,locals"));
    EXPECT_TRUE(args.locals);
    EXPECT_TRUE(args.verbose);
}

TEST(Arguments, LaterItemWins) {
    Arguments args;
    EXPECT_EQ("", args.parse("verbose=true,verbose=false"));
    EXPECT_FALSE(args.verbose);
}

TEST(Arguments, UnknownKeyNamesItAndTheValidOptions) {
    Arguments args;
    EXPECT_EQ("unknown option 'verbos' (valid options: verbose[=true|false], locals[=true|false])",
              args.parse("verbos=true"));
    EXPECT_EQ("unknown option 'depth' (valid options: verbose[=true|false], locals[=true|false])",
              args.parse("verbose,depth=3"));
}

TEST(Arguments, BadBooleanNamesValueAndKey) {
    Arguments args;
    EXPECT_EQ("invalid value 'yes' for option 'verbose': expected true or false",
              args.parse("verbose=yes"));
    EXPECT_EQ("invalid value '' for option 'verbose': expected true or false",
              args.parse("verbose="));
    EXPECT_EQ("invalid value 'TRUE' for option 'verbose': expected true or false",
              args.parse("verbose=TRUE"));
}

TEST(Arguments, EmptyItemIsRejected) {
    Arguments args;
    EXPECT_EQ("empty option name in 'verbose,' (valid options: verbose[=true|false], locals[=true|false])",
              args.parse("verbose,"));
    EXPECT_EQ("empty option name in ',verbose' (valid options: verbose[=true|false], locals[=true|false])",
              args.parse(",verbose"));
    EXPECT_EQ("empty option name in '=true' (valid options: verbose[=true|false], locals[=true|false])",
              args.parse("=true"));
}
