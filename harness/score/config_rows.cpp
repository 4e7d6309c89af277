#include "config_rows.h"

#include "format.h"
#include "result_schema.h"

using json = nlohmann::json;

namespace arena::score {

const std::vector<ConfigColumn>& config_columns() {
  static const std::vector<ConfigColumn> columns = [] {
    std::vector<ConfigColumn> c = {
        {"config", "", false, [](const json& x) { return x.value("label", "?"); }},
        {"params", "", false, [](const json& x) { return x.value("params", ""); }},
        {"speedup [95 % CI]", "", true, [](const json& x) { return fmt_speedup(x); }},
        {"verdict", "", false,
         [](const json& x) { return x.value("verdict", "").empty() ? std::string("-") : x.value("verdict", ""); }},
    };
    for (const ConfigStatistic& s : config_statistics()) {
      const std::string k = s.key;
      const bool fraction = s.unit == StatisticUnit::Fraction;
      c.push_back({s.label, s.description, true, [k, fraction](const json& x) {
                     const json v = x.value(k, json());
                     return fraction ? fmt_pct(v) : fmt_num(v, "%.2f");
                   }});
    }
    return c;
  }();
  return columns;
}

}  // namespace arena::score
