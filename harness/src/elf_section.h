// Reads one section of an ELF64 file (a kernel library's device code lives in one).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace arena {

// The bytes of section `name` of the ELF file at `path`; empty when the file has no such
// section. Throws std::runtime_error naming the file when it cannot be read or is not ELF64.
std::vector<uint8_t> read_elf_section(const std::string& path, const std::string& name);

}  // namespace arena
