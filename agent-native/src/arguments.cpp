#include "arguments.h"

#include <cstring>

namespace {

struct BoolOption {
    const char* name;
    bool Arguments::*field;
};

// Options are looked up in this table, so that the list of valid options in
// error messages cannot drift from what is accepted.
const BoolOption BOOL_OPTIONS[] = {
    {"verbose", &Arguments::verbose},
    {"locals", &Arguments::locals},
};

std::string validOptions() {
    std::string result;
    for (const BoolOption& option : BOOL_OPTIONS) {
        if (!result.empty()) result += ", ";
        result += option.name;
        result += "[=true|false]";
    }
    return result;
}

// A bare key means true, as with JVM flags such as -verbose.
bool parseBool(const std::string& value, bool present, bool& out) {
    if (!present || value == "true") {
        out = true;
        return true;
    }
    if (value == "false") {
        out = false;
        return true;
    }
    return false;
}

} // namespace

std::string Arguments::parse(const char* options) {
    if (options == nullptr || *options == '\0') return "";

    const char* item = options;
    while (true) {
        const char* end = std::strchr(item, ',');
        std::string text = end == nullptr ? std::string(item) : std::string(item, end);
        size_t eq = text.find('=');
        std::string key = text.substr(0, eq);
        bool hasValue = eq != std::string::npos;
        std::string value = hasValue ? text.substr(eq + 1) : "";

        if (key.empty()) {
            return "empty option name in '" + std::string(options) + "' (valid options: " +
                   validOptions() + ")";
        }

        const BoolOption* match = nullptr;
        for (const BoolOption& option : BOOL_OPTIONS) {
            if (key == option.name) match = &option;
        }
        if (match == nullptr) {
            return "unknown option '" + key + "' (valid options: " + validOptions() + ")";
        }
        if (!parseBool(value, hasValue, this->*(match->field))) {
            return "invalid value '" + value + "' for option '" + key +
                   "': expected true or false";
        }

        if (end == nullptr) return "";
        item = end + 1;
    }
}
