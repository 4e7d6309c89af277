// index.html's fast_p chart: the share of all tasks correct and faster than p, as p grows.
#pragma once
#include <sstream>

#include <nlohmann/json.hpp>

namespace arena::score {

// fast_p(x) = share of all tasks that are correct with speedup > x, for x from 1 to the largest speedup,
// overall and (with more than one suite) per suite, as an SVG with the reported fast_1.0/1.5/2.0 marked.
void fast_p_chart(std::ostringstream& h, const nlohmann::json& scores);

}  // namespace arena::score
