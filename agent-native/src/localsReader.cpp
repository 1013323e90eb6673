#include "localsReader.h"

namespace {

bool isWide(SlotType type) {
    return type == SlotType::Long || type == SlotType::Double;
}

std::string hexByte(char c) {
    const char* digits = "0123456789abcdef";
    unsigned char b = static_cast<unsigned char>(c);
    return {digits[b >> 4], digits[b & 0xf]};
}

} // namespace

std::string parseSlotTypes(const char* spec, std::vector<SlotType>& types) {
    types.clear();
    for (size_t slot = 0; spec[slot] != '\0'; slot++) {
        char code = spec[slot];
        switch (code) {
            case 'I': case 'J': case 'F': case 'D': case 'L': case '-':
                break;
            default: {
                // Input arrives as modified UTF-8: show a non-ASCII lead byte in hex
                // rather than print half a character.
                std::string shown = code > ' ' && code <= '~'
                                        ? "'" + std::string(1, code) + "'"
                                        : "character 0x" + hexByte(code);
                return "slot " + std::to_string(slot) + ": invalid slot type " + shown +
                       " (expected one of I J F D L -)";
            }
        }
        SlotType type = static_cast<SlotType>(code);
        // JVMTI reads a long/double from its first slot; a caller naming the
        // second slot anything but '-' has the layout wrong, so say so here
        // rather than let JVMTI fail with a vaguer INVALID_SLOT later.
        if (isWide(type) && spec[slot + 1] != '-') {
            return "slot " + std::to_string(slot) + ": '" + std::string(1, code) +
                   "' takes two slots, so slot " + std::to_string(slot + 1) +
                   " must be '-'";
        }
        types.push_back(type);
        if (isWide(type)) {
            types.push_back(SlotType::Skip);
            slot++;
        }
    }
    return "";
}

jvmtiError readSlot(jvmtiEnv* jvmti, jint depth, jint slot, SlotType type, jvalue& value) {
    // nullptr thread means the current thread for all GetLocal functions.
    switch (type) {
        case SlotType::Int:    return jvmti->GetLocalInt(nullptr, depth, slot, &value.i);
        case SlotType::Long:   return jvmti->GetLocalLong(nullptr, depth, slot, &value.j);
        case SlotType::Float:  return jvmti->GetLocalFloat(nullptr, depth, slot, &value.f);
        case SlotType::Double: return jvmti->GetLocalDouble(nullptr, depth, slot, &value.d);
        case SlotType::Object: return jvmti->GetLocalObject(nullptr, depth, slot, &value.l);
        case SlotType::Skip:   break;
    }
    return JVMTI_ERROR_ILLEGAL_ARGUMENT;
}
