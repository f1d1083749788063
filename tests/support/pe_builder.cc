#include "support/pe_builder.h"

#include "support/le_bytes.h"

namespace tfgpu::test {
namespace {

constexpr uint32_t kSectionRva = 0x1000;
constexpr uint32_t kSectionFileOffset = 0x200;

void align(std::string& s, size_t a) {
  while (s.size() % a) s += '\0';
}
void put_utf16z(std::string& s, const std::string& ascii) {
  for (char c : ascii) put_le(s, static_cast<unsigned char>(c), 2);
  put_le(s, 0, 2);
}

// One VS_VERSIONINFO-style block; `body` is called to write the value and children, after
// which wLength is patched. Alignment is relative to the start of `s`, which is the start
// of the version resource.
template <typename Body>
void block(std::string& s, const std::string& key, uint16_t value_length, uint16_t type, Body body) {
  size_t start = s.size();
  put_le(s, 0, 2);
  put_le(s, value_length, 2);
  put_le(s, type, 2);
  put_utf16z(s, key);
  align(s, 4);
  body();
  put_le_at(s, start, s.size() - start, 2);
}

std::string version_info(const PeBuilder& b) {
  std::string s;
  block(s, "VS_VERSION_INFO", 52, 0, [&] {
    put_le(s, 0xFEEF04BD, 4);
    put_le(s, 0x00010000, 4);
    put_le(s, (uint32_t{b.file_version.a} << 16) | b.file_version.b, 4);
    put_le(s, (uint32_t{b.file_version.c} << 16) | b.file_version.d, 4);
    put_le(s, (uint32_t{b.product_version.a} << 16) | b.product_version.b, 4);
    put_le(s, (uint32_t{b.product_version.c} << 16) | b.product_version.d, 4);
    put_le(s, 0x3f, 4);     // dwFileFlagsMask
    put_le(s, 0, 4);        // dwFileFlags
    put_le(s, 0x40004, 4);  // VOS_NT_WINDOWS32
    put_le(s, 2, 4);        // VFT_DLL
    put_le(s, 0, 4);
    put_le(s, 0, 4);
    put_le(s, 0, 4);
    align(s, 4);
    if (!b.version_strings.empty()) {
      block(s, "StringFileInfo", 0, 1, [&] {
        block(s, "040904b0", 0, 1, [&] {
          for (const auto& [k, v] : b.version_strings) {
            block(s, k, static_cast<uint16_t>(v.size() + 1), 1, [&] { put_utf16z(s, v); });
            align(s, 4);
          }
        });
        align(s, 4);
      });
      align(s, 4);
    }
    block(s, "VarFileInfo", 0, 1, [&] { block(s, "Translation", 4, 0, [&] { put_le(s, 0x04b00409, 4); }); });
  });
  return s;
}

}  // namespace

std::string PeBuilder::build() const {
  const bool plus = bits == 64;
  // --- section contents, RVAs relative to kSectionRva
  std::string sec;
  auto rva = [&](size_t off) { return static_cast<uint32_t>(kSectionRva + off); };

  uint32_t import_rva = 0, import_size = 0;
  if (!imports.empty()) {
    size_t desc = sec.size();
    sec.append((imports.size() + 1) * 20, '\0');
    for (size_t i = 0; i < imports.size(); ++i) {
      size_t ilt = sec.size();
      sec.append(plus ? 8 : 4, '\0');  // an empty import lookup table (just the terminator)
      size_t name = sec.size();
      sec += imports[i];
      sec += '\0';
      align(sec, 4);
      put_le_at(sec, desc + i * 20 + 0, rva(ilt), 4);    // OriginalFirstThunk
      put_le_at(sec, desc + i * 20 + 12, rva(name), 4);  // Name
      put_le_at(sec, desc + i * 20 + 16, rva(ilt), 4);   // FirstThunk
    }
    import_rva = rva(desc);
    import_size = static_cast<uint32_t>((imports.size() + 1) * 20);
    import_dir_offset = kSectionFileOffset + desc;
  }
  uint32_t delay_rva = 0, delay_size = 0;
  if (!delay_imports.empty()) {
    align(sec, 8);
    size_t desc = sec.size();
    sec.append((delay_imports.size() + 1) * 32, '\0');
    for (size_t i = 0; i < delay_imports.size(); ++i) {
      size_t name = sec.size();
      sec += delay_imports[i];
      sec += '\0';
      align(sec, 4);
      put_le_at(sec, desc + i * 32 + 0, 1, 4);  // Attributes: RVA-based
      put_le_at(sec, desc + i * 32 + 4, rva(name), 4);
    }
    delay_rva = rva(desc);
    delay_size = static_cast<uint32_t>((delay_imports.size() + 1) * 32);
  }
  uint32_t rsrc_rva = 0, rsrc_size = 0;
  if (with_version) {
    align(sec, 8);
    size_t root = sec.size();
    resource_offset = kSectionFileOffset + root;
    auto dir = [&](uint32_t id, uint32_t target) {
      put_le(sec, 0, 4), put_le(sec, 0, 4), put_le(sec, 0, 2), put_le(sec, 0, 2);
      put_le(sec, 0, 2), put_le(sec, 1, 2);  // no named entries, one id entry
      put_le(sec, id, 4), put_le(sec, target, 4);
    };
    // Offsets inside the resource section are relative to its root.
    dir(16, 0x80000000u | 24);     // RT_VERSION -> directory at +24
    dir(1, 0x80000000u | 48);      // id 1 -> directory at +48
    dir(0x409, 72);                // language -> data entry at +72
    std::string vi = version_info(*this);
    size_t data_entry = sec.size();
    put_le(sec, 0, 4), put_le(sec, vi.size(), 4), put_le(sec, 1200, 4), put_le(sec, 0, 4);
    align(sec, 8);
    size_t data = sec.size();
    put_le_at(sec, data_entry, rva(data), 4);
    version_offset = kSectionFileOffset + data;
    sec += vi;
    rsrc_rva = rva(root);
    rsrc_size = static_cast<uint32_t>(sec.size() - root);
  }
  if (sec.empty()) sec.assign(16, '\0');
  uint32_t virtual_size = static_cast<uint32_t>(sec.size());
  align(sec, 0x200);

  // --- headers
  std::string f;
  f += "MZ";
  f.append(0x3c - 2, '\0');
  put_le(f, 0x80, 4);
  f.append(0x80 - f.size(), '\0');
  f += std::string("PE\0\0", 4);
  const uint16_t opt_size = plus ? 240 : 224;
  put_le(f, machine, 2);
  put_le(f, 1, 2);  // one section
  put_le(f, 0, 4), put_le(f, 0, 4), put_le(f, 0, 4);
  put_le(f, opt_size, 2);
  uint16_t characteristics = 0x0002 | (plus ? 0x0020 : 0x0100) | (kind == Kind::kDll ? 0x2000 : 0);
  put_le(f, characteristics, 2);

  size_t opt = f.size();
  f.append(opt_size, '\0');
  put_le_at(f, opt + 0, plus ? 0x20b : 0x10b, 2);
  if (plus) {
    put_le_at(f, opt + 24, 0x180000000ull, 8);
  } else {
    put_le_at(f, opt + 28, 0x10000000u, 4);
  }
  put_le_at(f, opt + 32, 0x1000, 4);                                            // SectionAlignment
  put_le_at(f, opt + 36, 0x200, 4);                                             // FileAlignment
  put_le_at(f, opt + 40, 6, 2);                                                 // OS version 6.0
  put_le_at(f, opt + 48, 6, 2);                                                 // subsystem version 6.0
  put_le_at(f, opt + 56, kSectionRva + ((virtual_size + 0xfff) & ~0xfffu), 4);  // SizeOfImage
  put_le_at(f, opt + 60, kSectionFileOffset, 4);                                // SizeOfHeaders
  put_le_at(f, opt + 68, 3, 2);                                                 // IMAGE_SUBSYSTEM_WINDOWS_CUI
  put_le_at(f, opt + (plus ? 108 : 92), 16, 4);
  size_t dirs = opt + (plus ? 112 : 96);
  put_le_at(f, dirs + 1 * 8, import_rva, 4), put_le_at(f, dirs + 1 * 8 + 4, import_size, 4);
  put_le_at(f, dirs + 2 * 8, rsrc_rva, 4), put_le_at(f, dirs + 2 * 8 + 4, rsrc_size, 4);
  put_le_at(f, dirs + 13 * 8, delay_rva, 4), put_le_at(f, dirs + 13 * 8 + 4, delay_size, 4);

  section_table_offset = f.size();
  std::string name = ".rdata";
  name.resize(8, '\0');
  f += name;
  put_le(f, virtual_size, 4);
  put_le(f, kSectionRva, 4);
  put_le(f, sec.size(), 4);
  put_le(f, kSectionFileOffset, 4);
  put_le(f, 0, 4), put_le(f, 0, 4), put_le(f, 0, 2), put_le(f, 0, 2);
  put_le(f, 0x40000040u, 4);  // initialised data, readable
  f.append(kSectionFileOffset - f.size(), '\0');
  f += sec;
  return f;
}

}  // namespace tfgpu::test
