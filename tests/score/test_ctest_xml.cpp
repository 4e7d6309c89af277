#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "ctest_xml.h"
#include "gate.h"
#include "output_decode.h"

using namespace arena::score;
namespace fs = std::filesystem;

namespace {

const std::string kFixtures = ARENA_SCORE_FIXTURES;

const TestRecord& find(const TestXml& x, const std::string& name) {
  for (const auto& r : x.tests)
    if (r.name == name) return r;
  throw std::runtime_error("no test " + name);
}

Outcome outcome_of(const TestXml& x, const std::string& name, std::string* detail = nullptr) {
  std::string d;
  Outcome o = classify(find(x, name), &d);
  if (detail) *detail = d;
  return o;
}

std::string error_of(const std::string& text) {
  try {
    parse_test_xml(text, "mem.xml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CTestXml, ReadsEveryEndingCTestRecords) {
  TestXml x = read_test_xml(resolve_test_xml(kFixtures + "/failures"));
  EXPECT_EQ(x.tests.size(), 38u);  // 9 tasks x 4 gates, one agent test, one framework test
  EXPECT_GT(x.start_time, 1700000000);
  EXPECT_GE(x.end_time, x.start_time);
  std::string d;
  EXPECT_EQ(outcome_of(x, "hip2hip/a_compile_fail/compile", &d), Outcome::failed);
  EXPECT_EQ(d, "exit 1");
  EXPECT_EQ(outcome_of(x, "hip2hip/a_compile_fail/perf", &d), Outcome::not_run);
  EXPECT_EQ(d.rfind("Fixture dependency failed: Failed test dependencies: hip2hip/a_compile_fail/compile", 0), 0u) << d;
  EXPECT_EQ(outcome_of(x, "hip2hip/d_perf_timeout/perf", &d), Outcome::timeout);
  EXPECT_EQ(d.rfind("timed out after ", 0), 0u);
  EXPECT_EQ(outcome_of(x, "hip2hip/e_crash/correct_seen", &d), Outcome::crashed);
  EXPECT_EQ(d, "crashed (SEGFAULT)");
  EXPECT_EQ(outcome_of(x, "hip2hip/f_slower/perf"), Outcome::failed);
  EXPECT_EQ(outcome_of(x, "extra/h_nojson/perf"), Outcome::passed);
}

TEST(CTestXml, KeepsMeasurementsLabelsAndCommandLine) {
  TestXml x = read_test_xml(resolve_test_xml(kFixtures + "/failures"));
  const TestRecord& r = find(x, "hip2hip/f_slower/perf");
  EXPECT_DOUBLE_EQ(r.numbers.at("speedup"), 0.8);
  EXPECT_DOUBLE_EQ(r.numbers.at("ci95_high"), 0.81);
  EXPECT_DOUBLE_EQ(r.numbers.at("speedup.seen[0]"), 0.8);
  EXPECT_EQ(r.texts.at("verdict"), "SLOWER");
  EXPECT_EQ(r.numbers.count("Execution Time"), 0u);  // CTest's own bookkeeping is kept apart
  EXPECT_GT(r.execution_time, 0);
  EXPECT_NE(std::find(r.labels.begin(), r.labels.end(), "gpu"), r.labels.end());
  EXPECT_NE(r.command_line.find("\"--result\""), std::string::npos);
  const TestRecord& c = find(x, "hip2hip/b_seen_fail/correct_seen");
  EXPECT_DOUBLE_EQ(c.numbers.at("configs_passed"), 2);
  EXPECT_DOUBLE_EQ(c.numbers.at("configs_total"), 3);
}

TEST(CTestXml, DecodesCompressedOutput) {
  TestXml x = read_test_xml(resolve_test_xml(kFixtures + "/failures"));
  const TestRecord& r = find(x, "hip2hip/f_slower/perf");  // stored base64 + zlib by CTest
#if ARENA_SCORE_HAVE_ZLIB_BUILD
  EXPECT_TRUE(r.output_note.empty()) << r.output_note;
  EXPECT_NE(r.output.find("FAILED: candidate is slower on seen[0]"), std::string::npos) << r.output;
#else
  EXPECT_NE(r.output_note.find("without zlib"), std::string::npos);
#endif
}

TEST(CTestXml, SkipsAreSkippedWithTheReason) {
  TestXml x = read_test_xml(resolve_test_xml(kFixtures + "/no_gpu"));
  std::string d;
  EXPECT_EQ(outcome_of(x, "hip2hip/gemm_f32/perf", &d), Outcome::skipped);
  EXPECT_EQ(d.rfind("SKIPPED: no usable GPU", 0), 0u) << d;
  EXPECT_EQ(outcome_of(x, "hip2hip/gemm_f32/compile"), Outcome::passed);
}

TEST(CTestXml, MalformedXmlNamesFileAndLine) {
  std::string why;
  try {
    read_test_xml(resolve_test_xml(kFixtures + "/malformed"));
  } catch (const InputError& e) {
    why = e.what();
  }
  EXPECT_NE(why.find("/Test.xml:125: malformed XML: XML_ERROR_MISMATCHED_ELEMENT"), std::string::npos) << why;
  EXPECT_EQ(error_of("<Site>\n<Testing>\n<Test Status=\"passed\"><Name>a/b/compile</Name>\n"),
            "mem.xml:3: malformed XML: XML_ERROR_PARSING");
  EXPECT_EQ(error_of("<Site>\n<Testing>\n<Test Status=\"passed\"><Name>x</Nmae></Test>\n</Testing></Site>"),
            "mem.xml:3: malformed XML: XML_ERROR_MISMATCHED_ELEMENT (XMLElement name=Name)");
}

TEST(CTestXml, RejectsXmlThatIsNotATestXml) {
  EXPECT_EQ(error_of("<?xml version=\"1.0\"?>\n<Build/>"),
            "mem.xml:2: not a CTest Test.xml: the root element is <Build>, expected <Site>");
  EXPECT_NE(error_of("<Site Name=\"x\">\n  <Build/>\n</Site>").find("mem.xml:1: not a CTest Test.xml: <Site> has no <Testing>"),
            std::string::npos);
  EXPECT_EQ(error_of("<Site><Testing>\n<Test><Name>a/b/perf</Name></Test></Testing></Site>"),
            "mem.xml:2: <Test> 'a/b/perf' without a Status attribute");
}

TEST(CTestXml, ResolvesBuildAndTestingFolders) {
  const std::string xml = resolve_test_xml(kFixtures + "/all_pass");
  EXPECT_EQ(fs::path(xml).filename(), "Test.xml");
  EXPECT_EQ(fs::path(xml).parent_path().parent_path().filename(), "Testing");
  EXPECT_EQ(resolve_test_xml(kFixtures + "/all_pass/Testing"), xml);
  EXPECT_EQ(resolve_test_xml(xml), xml);
  EXPECT_THROW(resolve_test_xml(kFixtures + "/source"), InputError);
  EXPECT_THROW(resolve_test_xml(kFixtures + "/no/such/thing"), InputError);
}

TEST(OutputDecode, Base64AndZlib) {
  std::string out, why;
  ASSERT_TRUE(decode_base64("aGVs\nbG8=", &out));
  EXPECT_EQ(out, "hello");
  EXPECT_FALSE(decode_base64("aGVs*bG8=", &out));
  EXPECT_TRUE(decode_test_output("plain <text>", "", "", &out, &why));
  EXPECT_EQ(out, "plain <text>");
  EXPECT_FALSE(decode_test_output("x", "rot13", "", &out, &why));
  // What CTest wrote for ten lines "line <i> aaaaaaaaaaaaaaaaaaaaaaaaa".
  const std::string ctest = "eJzLycxLVTBUSMQFuHJACowIKTAmpMCEkAJTQgrMCCkwJ6TAgpACS0IKDA3wqAAAlQ10bQ==";
#if ARENA_SCORE_HAVE_ZLIB_BUILD
  ASSERT_TRUE(decode_test_output(ctest, "base64", "gzip", &out, &why)) << why;
  EXPECT_EQ(out.rfind("line 1 aaaaaaaaaaaaaaaaaaaaaaaaa\nline 2 ", 0), 0u);
  EXPECT_NE(out.find("line 10 aaaaaaaaaaaaaaaaaaaaaaaaa\n"), std::string::npos);
  EXPECT_FALSE(decode_test_output("aGVsbG8=", "base64", "gzip", &out, &why));  // not a zlib stream
#else
  EXPECT_FALSE(decode_test_output(ctest, "base64", "gzip", &out, &why));
#endif
}

TEST(GateNames, SplitsOnlyGateTests) {
  std::string s, t, g;
  ASSERT_TRUE(split_gate_test_name("hip2hip/gelu_f16/correct_unseen", &s, &t, &g));
  EXPECT_EQ(s, "hip2hip");
  EXPECT_EQ(t, "gelu_f16");
  EXPECT_EQ(g, "correct_unseen");
  EXPECT_TRUE(split_gate_test_name("a/b/agent", &s, &t, &g));
  EXPECT_FALSE(split_gate_test_name("framework/unit/Stats.Median", &s, &t, &g));
  EXPECT_FALSE(split_gate_test_name("framework/candidates/tail_bug/compile", &s, &t, &g));
  EXPECT_FALSE(split_gate_test_name("hip2hip//compile", &s, &t, &g));
  EXPECT_FALSE(split_gate_test_name("compile", &s, &t, &g));
}
