#include "ctest_xml.h"

#include <tinyxml2.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "output_decode.h"

namespace fs = std::filesystem;

namespace arena::score {

namespace {

std::string text_of(const tinyxml2::XMLElement* e) {
  if (!e) return "";
  const char* t = e->GetText();
  return t ? t : "";
}

std::string child_text(const tinyxml2::XMLElement* parent, const char* name) {
  return parent ? text_of(parent->FirstChildElement(name)) : "";
}

std::string attr(const tinyxml2::XMLElement* e, const char* name) {
  const char* v = e ? e->Attribute(name) : nullptr;
  return v ? v : "";
}

long long to_ll(const std::string& s) {
  char* end = nullptr;
  long long v = std::strtoll(s.c_str(), &end, 10);
  return end && end != s.c_str() ? v : 0;
}

std::string where(const std::string& path, int line) { return path + ":" + std::to_string(line) + ": "; }

TestRecord read_test(const tinyxml2::XMLElement* t, const std::string& path) {
  TestRecord r;
  r.line = t->GetLineNum();
  r.status = attr(t, "Status");
  r.name = child_text(t, "Name");
  if (r.name.empty()) throw InputError(where(path, r.line) + "<Test> without a <Name>");
  if (r.status.empty()) throw InputError(where(path, r.line) + "<Test> '" + r.name + "' without a Status attribute");
  r.command_line = child_text(t, "FullCommandLine");
  const tinyxml2::XMLElement* results = t->FirstChildElement("Results");
  for (const tinyxml2::XMLElement* m = results ? results->FirstChildElement("NamedMeasurement") : nullptr; m;
       m = m->NextSiblingElement("NamedMeasurement")) {
    const std::string name = attr(m, "name"), type = attr(m, "type");
    const std::string value = child_text(m, "Value");
    if (name == "Completion Status") r.completion_status = value;
    else if (name == "Exit Code") r.exit_code = value;
    else if (name == "Exit Value") r.exit_value = value;
    else if (name == "Fail Reason") r.fail_reason = value;
    else if (name == "Execution Time") r.execution_time = std::strtod(value.c_str(), nullptr);
    else if (name == "Command Line") {
      if (r.command_line.empty()) r.command_line = value;
    } else if (name == "Processors" || name == "Environment" || name == "Pass Reason") {
      // CTest's own bookkeeping
    } else if (type == "numeric/double" || type == "numeric/float" || type == "numeric/integer") {
      char* end = nullptr;
      double v = std::strtod(value.c_str(), &end);
      if (end != value.c_str()) r.numbers[name] = v;
    } else if (type == "text/string" || type == "text/preformatted") {
      r.texts[name] = value;
    }
  }
  if (const tinyxml2::XMLElement* out = results ? results->FirstChildElement("Measurement") : nullptr) {
    const tinyxml2::XMLElement* v = out->FirstChildElement("Value");
    std::string why;
    if (!decode_test_output(text_of(v), attr(v, "encoding"), attr(v, "compression"), &r.output, &why)) {
      r.output.clear();
      r.output_note = why;
    }
  }
  if (const tinyxml2::XMLElement* labels = t->FirstChildElement("Labels"))
    for (const tinyxml2::XMLElement* l = labels->FirstChildElement("Label"); l; l = l->NextSiblingElement("Label"))
      r.labels.push_back(text_of(l));
  return r;
}

}  // namespace

TestXml parse_test_xml(const std::string& text, const std::string& path) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    // ErrorStr() is "Error=<name> ErrorID=<n> (0x..) Line number=<line>: <detail>"; keep the detail.
    std::string detail = doc.ErrorStr() ? doc.ErrorStr() : "";
    size_t at = detail.find("Line number=");
    at = at == std::string::npos ? std::string::npos : detail.find(": ", at);
    detail = at == std::string::npos ? "" : detail.substr(at + 2);
    throw InputError(where(path, doc.ErrorLineNum()) + "malformed XML: " + doc.ErrorName() +
                     (detail.empty() ? "" : " (" + detail + ")"));
  }
  const tinyxml2::XMLElement* site = doc.FirstChildElement("Site");
  if (!site) {
    const tinyxml2::XMLElement* root = doc.RootElement();
    throw InputError(where(path, root ? root->GetLineNum() : 1) + "not a CTest Test.xml: the root element is <" +
                     (root ? root->Name() : "none") + ">, expected <Site>");
  }
  const tinyxml2::XMLElement* testing = site->FirstChildElement("Testing");
  if (!testing)
    throw InputError(where(path, site->GetLineNum()) +
                     "not a CTest Test.xml: <Site> has no <Testing> (is this a Build.xml or Configure.xml?)");
  TestXml x;
  x.path = path;
  x.site = attr(site, "Name");
  x.build_name = attr(site, "BuildName");
  x.build_stamp = attr(site, "BuildStamp");
  x.generator = attr(site, "Generator");
  x.start_time = to_ll(child_text(testing, "StartTestTime"));
  x.end_time = to_ll(child_text(testing, "EndTestTime"));
  for (const tinyxml2::XMLElement* t = testing->FirstChildElement("Test"); t; t = t->NextSiblingElement("Test"))
    x.tests.push_back(read_test(t, path));
  return x;
}

TestXml read_test_xml(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot read the file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_test_xml(ss.str(), path);
}

std::string resolve_test_xml(const std::string& path) {
  fs::path p(path);
  if (fs::is_regular_file(p)) return path;
  if (!fs::is_directory(p)) throw InputError(path + ": no such file or folder");
  for (const fs::path& testing : {p / "Testing", p}) {
    std::ifstream tag_file(testing / "TAG");
    std::string tag;
    if (tag_file && std::getline(tag_file, tag) && !tag.empty()) {
      fs::path xml = (testing / tag / "Test.xml").lexically_normal();
      if (fs::is_regular_file(xml)) return xml.string();
      throw InputError(path + ": " + (testing / "TAG").string() + " names tag " + tag + " but " + xml.string() +
                       " does not exist (run ctest -T Test)");
    }
  }
  if (fs::is_regular_file(p / "Test.xml")) return (p / "Test.xml").lexically_normal().string();
  throw InputError(path + ": no Test.xml here (expected a Test.xml, a build folder with Testing/TAG, or a Testing folder)");
}

}  // namespace arena::score
