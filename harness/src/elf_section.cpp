#include "elf_section.h"

#include <elf.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace arena {

std::vector<uint8_t> read_elf_section(const std::string& path, const std::string& name) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error(path + ": cannot be read");
  std::vector<uint8_t> file((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto fail = [&](const std::string& why) { return std::runtime_error(path + ": " + why); };
  if (file.size() < sizeof(Elf64_Ehdr) || std::memcmp(file.data(), ELFMAG, SELFMAG) != 0 ||
      file[EI_CLASS] != ELFCLASS64)
    throw fail("not an ELF64 file");
  Elf64_Ehdr eh;
  std::memcpy(&eh, file.data(), sizeof eh);
  if (eh.e_shoff == 0 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
      eh.e_shoff + uint64_t{eh.e_shnum} * sizeof(Elf64_Shdr) > file.size() || eh.e_shstrndx >= eh.e_shnum)
    throw fail("malformed section table");
  auto section = [&](size_t i) {
    Elf64_Shdr sh;
    std::memcpy(&sh, file.data() + eh.e_shoff + i * sizeof(Elf64_Shdr), sizeof sh);
    return sh;
  };
  const Elf64_Shdr names = section(eh.e_shstrndx);
  if (names.sh_offset + names.sh_size > file.size()) throw fail("malformed section names");
  for (size_t i = 0; i < eh.e_shnum; ++i) {
    const Elf64_Shdr sh = section(i);
    if (sh.sh_name >= names.sh_size) continue;
    const char* n = reinterpret_cast<const char*>(file.data() + names.sh_offset + sh.sh_name);
    if (name != std::string(n, strnlen(n, names.sh_size - sh.sh_name))) continue;
    if (sh.sh_type == SHT_NOBITS) return {};
    if (sh.sh_offset + sh.sh_size > file.size()) throw fail("section " + name + " runs past the end of the file");
    return std::vector<uint8_t>(file.begin() + static_cast<std::ptrdiff_t>(sh.sh_offset),
                                file.begin() + static_cast<std::ptrdiff_t>(sh.sh_offset + sh.sh_size));
  }
  return {};
}

}  // namespace arena
