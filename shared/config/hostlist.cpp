#include "shared/config/hostlist.h"
#include "shared/base/try.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace fairway {
namespace {

// A typo such as "cn[1-1000000000]" must fail fast instead of exhausting memory.
constexpr std::size_t kMaxHosts = 100000;
// Enough for any real node number while keeping the arithmetic far from overflow.
constexpr std::size_t kMaxDigits = 9;

// One run of consecutive numbers inside brackets, e.g. "01-04" (width 2) or "7" (width 1).
struct Range {
  std::int64_t lo = 0;
  std::int64_t hi = 0;
  std::size_t width = 0;  // zero padding taken from the lower bound as written
};

// One part of a host pattern: literal text, or a bracketed set of numbers.
struct Segment {
  std::string literal;
  std::vector<Range> ranges;  // empty: a literal segment
  bool is_set() const { return !ranges.empty(); }
  std::size_t size() const {
    if (!is_set()) return 1;
    std::size_t n = 0;
    for (const auto& r : ranges) n += static_cast<std::size_t>(r.hi - r.lo + 1);
    return n;
  }
};

std::string_view trim(std::string_view s) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

class Expander {
 public:
  explicit Expander(std::string_view list) : list_(list) {}

  Result<std::vector<std::string>> run() {
    if (trim(list_).empty()) return fail("empty host list");
    std::vector<std::string_view> items;
    FAIRWAY_TRY(split_top_level(items));
    std::vector<std::string> hosts;
    for (std::string_view item : items) {
      FAIRWAY_TRY(expand_item(trim(item), hosts));
    }
    return hosts;
  }

 private:
  std::unexpected<Error> fail(const std::string& what) const {
    return invalid_argument("invalid host list '" + std::string(list_) + "': " + what);
  }

  // Commas inside brackets separate numbers, not hosts, so splitting tracks depth.
  Status split_top_level(std::vector<std::string_view>& items) const {
    std::size_t start = 0;
    bool in_brackets = false;
    for (std::size_t i = 0; i < list_.size(); ++i) {
      char c = list_[i];
      if (c == '[') {
        if (in_brackets) return fail("nested '[' at position " + std::to_string(i));
        in_brackets = true;
      } else if (c == ']') {
        if (!in_brackets) return fail("unbalanced ']' at position " + std::to_string(i));
        in_brackets = false;
      } else if (c == ',' && !in_brackets) {
        items.push_back(list_.substr(start, i - start));
        start = i + 1;
      }
    }
    if (in_brackets) return fail("unbalanced '[' (missing ']')");
    items.push_back(list_.substr(start));
    return ok_status();
  }

  Status parse_number(std::string_view text, std::string_view item, std::int64_t& out,
                      std::size_t& width) const {
    if (text.empty() || text.size() > kMaxDigits) {
      return fail("non-numeric range '" + std::string(text) + "' in '" + std::string(item) + "'");
    }
    std::int64_t v = 0;
    for (char c : text) {
      if (c < '0' || c > '9') {
        return fail("non-numeric range '" + std::string(text) + "' in '" + std::string(item) + "'");
      }
      v = v * 10 + (c - '0');
    }
    out = v;
    width = text.size();
    return ok_status();
  }

  Status parse_set(std::string_view body, std::string_view item, Segment& seg) const {
    if (trim(body).empty()) return fail("empty range '[]' in '" + std::string(item) + "'");
    std::size_t start = 0;
    std::size_t total = 0;
    for (std::size_t i = 0; i <= body.size(); ++i) {
      if (i < body.size() && body[i] != ',') continue;
      std::string_view part = trim(body.substr(start, i - start));
      start = i + 1;
      if (part.empty()) return fail("empty range in '" + std::string(item) + "'");
      Range r;
      std::size_t hi_width = 0;
      if (auto dash = part.find('-'); dash != std::string_view::npos) {
        std::string_view lo_text = trim(part.substr(0, dash));
        std::string_view hi_text = trim(part.substr(dash + 1));
        FAIRWAY_TRY(parse_number(lo_text, item, r.lo, r.width));
        FAIRWAY_TRY(parse_number(hi_text, item, r.hi, hi_width));
        if (r.hi < r.lo) {
          return fail("reversed range '" + std::string(part) + "' in '" + std::string(item) + "'");
        }
      } else {
        FAIRWAY_TRY(parse_number(part, item, r.lo, r.width));
        r.hi = r.lo;
      }
      total += static_cast<std::size_t>(r.hi - r.lo + 1);
      if (total > kMaxHosts) {
        return fail("'" + std::string(item) + "' names more than " + std::to_string(kMaxHosts) + " hosts");
      }
      seg.ranges.push_back(r);
    }
    return ok_status();
  }

  Status expand_item(std::string_view item, std::vector<std::string>& hosts) const {
    if (item.empty()) return fail("empty host name");
    std::vector<Segment> segments;
    std::size_t pos = 0;
    while (pos < item.size()) {
      std::size_t open = item.find('[', pos);
      if (open == std::string_view::npos) {
        segments.push_back({std::string(item.substr(pos)), {}});
        break;
      }
      if (open > pos) segments.push_back({std::string(item.substr(pos, open - pos)), {}});
      std::size_t close = item.find(']', open);  // balanced: split_top_level checked it
      Segment set;
      FAIRWAY_TRY(parse_set(item.substr(open + 1, close - open - 1), item, set));
      segments.push_back(std::move(set));
      pos = close + 1;
    }
    for (const auto& seg : segments) {
      for (char c : seg.literal) {
        auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u == 0x7f) {
          return fail("invalid character in host name '" + std::string(item) + "'");
        }
      }
    }

    // Several bracket sets ("r[1-2]n[1-3]") combine as a cartesian product.
    std::size_t count = 1;
    for (const auto& seg : segments) {
      count *= seg.size();
      if (count > kMaxHosts || hosts.size() + count > kMaxHosts) {
        return fail("more than " + std::to_string(kMaxHosts) + " hosts");
      }
    }
    std::vector<std::string> names{std::string()};
    for (const auto& seg : segments) {
      std::vector<std::string> next;
      next.reserve(names.size() * seg.size());
      for (const auto& prefix : names) {
        if (!seg.is_set()) {
          next.push_back(prefix + seg.literal);
          continue;
        }
        for (const auto& r : seg.ranges) {
          for (std::int64_t v = r.lo; v <= r.hi; ++v) {
            std::string digits = std::to_string(v);
            if (digits.size() < r.width) digits.insert(0, r.width - digits.size(), '0');
            next.push_back(prefix + digits);
          }
        }
      }
      names = std::move(next);
    }
    for (auto& n : names) hosts.push_back(std::move(n));
    return ok_status();
  }

  std::string_view list_;
};

}  // namespace

Result<std::vector<std::string>> expand_hostlist(std::string_view list) {
  return Expander(list).run();
}

namespace {

struct NumberedName {
  std::string prefix;
  std::size_t width = 0;  // digits as written; 0: no trailing number
  std::int64_t number = 0;
};

NumberedName split_number(std::string_view host) {
  std::size_t digits = 0;
  while (digits < host.size() && digits < kMaxDigits && host[host.size() - 1 - digits] >= '0' &&
         host[host.size() - 1 - digits] <= '9') {
    ++digits;
  }
  NumberedName n{std::string(host.substr(0, host.size() - digits)), digits, 0};
  for (std::size_t i = host.size() - digits; i < host.size(); ++i) n.number = n.number * 10 + (host[i] - '0');
  return n;
}

std::string padded(std::int64_t v, std::size_t width) {
  std::string s = std::to_string(v);
  if (s.size() < width) s.insert(0, width - s.size(), '0');
  return s;
}

}  // namespace

bool hostlist_less(std::string_view a, std::string_view b) {
  const NumberedName x = split_number(a);
  const NumberedName y = split_number(b);
  if (x.prefix != y.prefix) return x.prefix < y.prefix;
  if ((x.width == 0) != (y.width == 0)) return x.width == 0;
  if (x.number != y.number) return x.number < y.number;
  return a < b;  // "n01" and "n1": any fixed order
}

std::string compress_hostlist(const std::vector<std::string>& hosts) {
  // Groups keyed by prefix and width, in order of first appearance.
  std::vector<std::pair<NumberedName, std::vector<std::int64_t>>> groups;
  for (const std::string& h : hosts) {
    NumberedName n = split_number(h);
    if (n.width == 0) {
      groups.push_back({n, {}});
      continue;
    }
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) {
      return g.first.width == n.width && g.first.prefix == n.prefix;
    });
    if (it == groups.end()) {
      groups.push_back({n, {n.number}});
    } else {
      it->second.push_back(n.number);
    }
  }
  std::string out;
  for (auto& [name, numbers] : groups) {
    if (!out.empty()) out += ',';
    if (numbers.empty()) {
      out += name.prefix;
      continue;
    }
    std::sort(numbers.begin(), numbers.end());
    numbers.erase(std::unique(numbers.begin(), numbers.end()), numbers.end());
    if (numbers.size() == 1) {
      out += name.prefix + padded(numbers[0], name.width);
      continue;
    }
    out += name.prefix + '[';
    for (std::size_t i = 0; i < numbers.size();) {
      std::size_t j = i;
      while (j + 1 < numbers.size() && numbers[j + 1] == numbers[j] + 1) ++j;
      if (i > 0) out += ',';
      out += padded(numbers[i], name.width);
      if (j > i) out += '-' + padded(numbers[j], name.width);
      i = j + 1;
    }
    out += ']';
  }
  return out;
}

}  // namespace fairway
