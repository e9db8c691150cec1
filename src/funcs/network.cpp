// IP network functions, as Terraform's funcs/cidr.go defines them:
// cidrhost, cidrnetmask, cidrsubnet, cidrsubnets.
//
// Terraform parses prefixes with its ipaddr package (Go 1.16's net parser,
// which reads IPv4 octets with leading zeros as decimal) and computes with
// go-cidr v1.1.0 over Go's net.IP byte slices and big.Int. The results
// depend on those libraries' exact behaviour, quirks included: an IPv4
// address written in IPv6 syntax keeps 16 bytes, host numbers are checked
// against their low 64 bits, a subnet number is shifted as a signed big
// integer. So this file models the Go values one to one: an IP is a byte
// string of length 4, 16 or 0 (nil), masks likewise, integers are GMP
// integers with big.Int's two's complement bit operations.
#include <gmp.h>
#include <mpfr.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "funcs/funcs.h"
#include "value/number.h"
#include <hclvm/functions.h>

namespace hclvm::funcs {

namespace {

using Bytes = std::vector<uint8_t>;

// An owned GMP integer.
struct Z {
  mpz_t v;
  Z() { mpz_init(v); }
  ~Z() { mpz_clear(v); }
  Z(const Z&) = delete;
  Z& operator=(const Z&) = delete;
  // The decimal text, for messages: its size is checked and its work
  // counted before it is written (util/budget.h).
  std::string str() const {
    size_t bits = mpz_sizeinbase(v, 2);
    util::check_string_size(uint64_t(bits) * 30103 / 100000);
    util::charge_number_work(bits);
    std::string s(mpz_sizeinbase(v, 10) + 2, '\0');
    mpz_get_str(s.data(), 10, v);
    s.resize(std::char_traits<char>::length(s.c_str()));
    return s;
  }
};

// Sets [out] to the integer [n] exactly (as big.Float.Int does). Its bits
// are counted as memory and work first: 1e100000000 is an integer of a
// third of a billion bits.
void to_mpz(const Number& n, Z& out) {
  if (std::optional<int64_t> i = n.to_int64()) {
    mpz_set_si(out.v, *i);
    return;
  }
  mpfr_t x;
  num::to_mpfr(n, x);
  mpfr_exp_t e = mpfr_get_exp(x);
  if (e > 0) {
    try {
      util::charge_memory(size_t(e) / 8);
      util::charge_number_work(uint64_t(e));
    } catch (...) {
      mpfr_clear(x);
      throw;
    }
  }
  mpfr_get_z(out.v, x, MPFR_RNDZ);  // exact: [n] is an integer
  mpfr_clear(x);
}

// gocty.FromCtyValue into a *big.Int.
bool to_big_int(const Value& v, Z& out, std::string& err) {
  Number n = v.as_number();
  if (n.is_inf() || !n.is_integer()) {
    err = "value must be a whole number";
    return false;
  }
  to_mpz(n, out);
  return true;
}

// --- Go's net package on byte slices ---------------------------------------

bool is_v4_in_v6(const Bytes& ip) {
  if (ip.size() != 16) return false;
  for (int i = 0; i < 10; ++i)
    if (ip[size_t(i)] != 0) return false;
  return ip[10] == 0xff && ip[11] == 0xff;
}

// net.IP.To4: the 4-byte form, or nil.
Bytes to4(const Bytes& ip) {
  if (ip.size() == 4) return ip;
  if (is_v4_in_v6(ip)) return Bytes(ip.begin() + 12, ip.end());
  return {};
}

// net.IPv4(a, b, c, d): the 16-byte form.
Bytes ipv4(uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
  Bytes ip(16, 0);
  ip[10] = ip[11] = 0xff;
  ip[12] = a;
  ip[13] = b;
  ip[14] = c;
  ip[15] = d;
  return ip;
}

// net.CIDRMask: nil unless 0 <= ones <= bits and bits is 32 or 128.
Bytes cidr_mask(int64_t ones, int64_t bits) {
  if ((bits != 32 && bits != 128) || ones < 0 || ones > bits) return {};
  Bytes m(size_t(bits / 8), 0);
  for (int64_t i = 0; i < ones; ++i) m[size_t(i / 8)] |= uint8_t(0x80 >> (i % 8));
  return m;
}

// net.IPMask.Size: the leading ones and the bit length, or 0, 0 when the
// mask is not canonical.
std::pair<int, int> mask_size(const Bytes& m) {
  int ones = 0;
  size_t i = 0;
  for (; i < m.size() && m[i] == 0xff; ++i) ones += 8;
  if (i < m.size()) {
    uint8_t b = m[i];
    while (b & 0x80) {
      ++ones;
      b = uint8_t(b << 1);
    }
    if (b != 0) return {0, 0};
    for (++i; i < m.size(); ++i)
      if (m[i] != 0) return {0, 0};
  }
  return {ones, int(m.size() * 8)};
}

// net.IP.Mask: nil when the lengths do not fit.
Bytes ip_mask(Bytes ip, Bytes mask) {
  if (mask.size() == 16 && ip.size() == 4) {
    bool ff = true;
    for (int i = 0; i < 12; ++i) ff = ff && mask[size_t(i)] == 0xff;
    if (ff) mask.erase(mask.begin(), mask.begin() + 12);
  }
  if (mask.size() == 4 && ip.size() == 16 && is_v4_in_v6(ip)) ip.erase(ip.begin(), ip.begin() + 12);
  if (ip.size() != mask.size()) return {};
  Bytes out(ip.size());
  for (size_t i = 0; i < ip.size(); ++i) out[i] = ip[i] & mask[i];
  return out;
}

// net.IP.Equal.
bool ip_equal(const Bytes& a, const Bytes& b) {
  if (a.size() == b.size()) return a == b;
  if (a.size() == 4 && b.size() == 16) return is_v4_in_v6(b) && Bytes(b.begin() + 12, b.end()) == a;
  if (a.size() == 16 && b.size() == 4) return ip_equal(b, a);
  return false;
}

// net.IP.String.
std::string ip_string(const Bytes& ip) {
  static const char hex[] = "0123456789abcdef";
  if (ip.empty()) return "<nil>";
  if (ip.size() != 4 && ip.size() != 16) {
    std::string s = "?";
    for (uint8_t b : ip) {
      s += hex[b >> 4];
      s += hex[b & 15];
    }
    return s;
  }
  Bytes p4 = to4(ip);
  if (p4.size() == 4) {
    return std::to_string(p4[0]) + "." + std::to_string(p4[1]) + "." + std::to_string(p4[2]) + "." +
           std::to_string(p4[3]);
  }
  // The longest run of two or more zero groups (the first of equals) is "::".
  std::array<unsigned, 8> g{};
  for (size_t i = 0; i < 8; ++i) g[i] = unsigned(ip[2 * i]) << 8 | ip[2 * i + 1];
  size_t zs = 8, ze = 8;
  for (size_t i = 0; i < 8; ++i) {
    size_t j = i;
    while (j < 8 && g[j] == 0) ++j;
    if (j - i >= 2 && j - i > ze - zs) {
      zs = i;
      ze = j;
    }
  }
  std::string s;
  for (size_t i = 0; i < 8; ++i) {
    if (i == zs) {
      s += "::";
      i = ze - 1;
      continue;
    }
    if (i > 0 && i != ze) s += ':';
    char buf[8];
    int n = 0;
    unsigned v = g[i];
    do {
      buf[n++] = hex[v & 15];
      v >>= 4;
    } while (v != 0);
    while (n > 0) s += buf[--n];
  }
  return s;
}

struct IpNet {
  Bytes ip, mask;
};

// net's networkNumberAndMask: false when the IP and mask do not go together.
bool network_number_and_mask(const IpNet& n, Bytes& ip, Bytes& m) {
  ip = to4(n.ip);
  if (ip.empty()) {
    ip = n.ip;
    if (ip.size() != 16) return false;
  }
  m = n.mask;
  if (m.size() == 4) {
    if (ip.size() != 4) return false;
  } else if (m.size() == 16) {
    if (ip.size() == 4) m.erase(m.begin(), m.begin() + 12);
  } else {
    return false;
  }
  return true;
}

// net.IPNet.String.
std::string net_string(const IpNet& n) {
  Bytes ip, m;
  if (!network_number_and_mask(n, ip, m)) return "<nil>";
  auto [ones, bits] = mask_size(m);
  if (ones == 0 && bits == 0 && !m.empty()) {
    // A mask that is not a prefix prints as hexadecimal.
    static const char hex[] = "0123456789abcdef";
    std::string s = ip_string(ip) + "/";
    for (uint8_t b : m) {
      s += hex[b >> 4];
      s += hex[b & 15];
    }
    return s;
  }
  return ip_string(ip) + "/" + std::to_string(ones);
}

// net.IPNet.Contains.
bool net_contains(const IpNet& n, Bytes ip) {
  Bytes nn, m;
  if (!network_number_and_mask(n, nn, m)) return false;
  Bytes x = to4(ip);
  if (!x.empty()) ip = x;
  if (ip.size() != nn.size()) return false;
  for (size_t i = 0; i < ip.size(); ++i)
    if ((nn[i] & m[i]) != (ip[i] & m[i])) return false;
  return true;
}

// --- Terraform's ipaddr (Go 1.16's parser) ------------------------------------

constexpr int kBig = 0xFFFFFF;

// Decimal digits at the start of [s]: value, count, success.
bool dtoi(std::string_view s, int& n, size_t& i) {
  n = 0;
  for (i = 0; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i) {
    n = n * 10 + (s[i] - '0');
    if (n >= kBig) {
      n = kBig;
      return false;
    }
  }
  return i > 0;
}

// Hexadecimal digits at the start of [s]: value, count, success.
bool xtoi(std::string_view s, int& n, size_t& i) {
  n = 0;
  for (i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= '0' && c <= '9')
      n = n * 16 + (c - '0');
    else if (c >= 'a' && c <= 'f')
      n = n * 16 + (c - 'a') + 10;
    else if (c >= 'A' && c <= 'F')
      n = n * 16 + (c - 'A') + 10;
    else
      break;
    if (n >= kBig) return false;
  }
  return i > 0;
}

Bytes parse_ipv4(std::string_view s) {
  std::array<uint8_t, 4> p{};
  for (size_t i = 0; i < 4; ++i) {
    if (s.empty()) return {};
    if (i > 0) {
      if (s[0] != '.') return {};
      s.remove_prefix(1);
    }
    int n = 0;
    size_t c = 0;
    if (!dtoi(s, n, c) || n > 0xFF) return {};
    s.remove_prefix(c);
    p[i] = uint8_t(n);
  }
  if (!s.empty()) return {};
  return ipv4(p[0], p[1], p[2], p[3]);
}

Bytes parse_ipv6(std::string_view s) {
  Bytes ip(16, 0);
  int ellipsis = -1;
  if (s.size() >= 2 && s[0] == ':' && s[1] == ':') {
    ellipsis = 0;
    s.remove_prefix(2);
    if (s.empty()) return ip;
  }
  int i = 0;
  while (i < 16) {
    int n = 0;
    size_t c = 0;
    if (!xtoi(s, n, c) || n > 0xFFFF) return {};
    if (c < s.size() && s[c] == '.') {
      if (ellipsis < 0 && i != 12) return {};
      if (i + 4 > 16) return {};
      Bytes ip4 = parse_ipv4(s);
      if (ip4.empty()) return {};
      for (int k = 0; k < 4; ++k) ip[size_t(i + k)] = ip4[size_t(12 + k)];
      s = {};
      i += 4;
      break;
    }
    ip[size_t(i)] = uint8_t(n >> 8);
    ip[size_t(i + 1)] = uint8_t(n);
    i += 2;
    s.remove_prefix(c);
    if (s.empty()) break;
    if (s[0] != ':' || s.size() == 1) return {};
    s.remove_prefix(1);
    if (s[0] == ':') {
      if (ellipsis >= 0) return {};
      ellipsis = i;
      s.remove_prefix(1);
      if (s.empty()) break;
    }
  }
  if (!s.empty()) return {};
  if (i < 16) {
    if (ellipsis < 0) return {};
    int n = 16 - i;
    for (int j = i - 1; j >= ellipsis; --j) ip[size_t(j + n)] = ip[size_t(j)];
    for (int j = ellipsis + n - 1; j >= ellipsis; --j) ip[size_t(j)] = 0;
  } else if (ellipsis >= 0) {
    return {};
  }
  return ip;
}

// ipaddr.ParseCIDR: the network, or false (Go's "invalid CIDR address").
bool parse_cidr(std::string_view s, IpNet& out) {
  size_t slash = s.find('/');
  if (slash == std::string_view::npos) return false;
  std::string_view addr = s.substr(0, slash), mask = s.substr(slash + 1);
  int iplen = 4;
  Bytes ip = parse_ipv4(addr);
  if (ip.empty()) {
    iplen = 16;
    ip = parse_ipv6(addr);
  }
  int n = 0;
  size_t i = 0;
  bool ok = dtoi(mask, n, i);
  if (ip.empty() || !ok || i != mask.size() || n < 0 || n > 8 * iplen) return false;
  Bytes m = cidr_mask(n, 8 * iplen);
  out.ip = ip_mask(ip, m);
  out.mask = m;
  return true;
}

std::string invalid_cidr(std::string_view s) {
  return "invalid CIDR expression: invalid CIDR address: " + std::string(s);
}

// --- go-cidr v1.1.0 ------------------------------------------------------------

// ipToInt: the address as an integer and its bit length (0 when the
// length is neither 4 nor 16, where go-cidr panics).
int ip_to_int(const Bytes& ip, Z& out) {
  mpz_import(out.v, ip.size(), 1, 1, 1, 0, ip.data());
  if (ip.size() == 4) return 32;
  if (ip.size() == 16) return 128;
  return 0;
}

// intToIP: the magnitude of [v] right-aligned in bits/8 bytes; false when
// it has more bytes (go-cidr indexes out of range).
bool int_to_ip(const Z& v, int bits, Bytes& out) {
  size_t count = 0;
  std::vector<uint8_t> bytes((mpz_sizeinbase(v.v, 2) + 7) / 8 + 1);
  mpz_export(bytes.data(), &count, 1, 1, 1, 0, v.v);
  bytes.resize(count);
  out.assign(size_t(bits / 8), 0);
  if (bytes.size() > out.size()) return false;
  std::copy(bytes.begin(), bytes.end(), out.end() - std::ptrdiff_t(bytes.size()));
  return true;
}

// insertNumIntoIP: ip | num << (bits - prefix_len), with big.Int's sign
// semantics for a negative num.
bool insert_num_into_ip(const Bytes& ip, const Z& num, int64_t prefix_len, Bytes& out) {
  Z ip_int, shifted;
  int bits = ip_to_int(ip, ip_int);
  if (bits == 0 || prefix_len > bits) return false;
  // A shift past the address leaves it unchanged for 0 and overflows it
  // for anything else (go-cidr would need a gigantic integer).
  if (bits - prefix_len > 2 * 128) {
    if (mpz_sgn(num.v) != 0) return false;
    return int_to_ip(ip_int, bits, out);
  }
  mpz_mul_2exp(shifted.v, num.v, mp_bitcnt_t(bits - prefix_len));
  mpz_ior(ip_int.v, ip_int.v, shifted.v);
  return int_to_ip(ip_int, bits, out);
}

// The low 64 bits of |x| (big.Int.Uint64).
uint64_t low64(const Z& x) {
  Z a;
  mpz_abs(a.v, x.v);
  mpz_fdiv_r_2exp(a.v, a.v, 64);
  uint64_t r = 0;
  size_t count = 0;
  uint8_t buf[8] = {};
  mpz_export(buf, &count, 1, 1, 1, 0, a.v);
  for (size_t i = 0; i < count; ++i) r = r << 8 | buf[i];
  return r;
}

// HostBig.
bool host_big(const IpNet& base, Z& num, Bytes& out, std::string& err) {
  auto [parent_len, addr_len] = mask_size(base.mask);
  int host_len = addr_len - parent_len;
  Z max_host;
  mpz_set_ui(max_host.v, 1);
  mpz_mul_2exp(max_host.v, max_host.v, mp_bitcnt_t(host_len));
  mpz_sub_ui(max_host.v, max_host.v, 1);
  Z num_u;
  mpz_set_si(num_u.v, int64_t(low64(num)));
  if (mpz_sgn(num.v) < 0) {
    mpz_neg(num_u.v, num.v);
    mpz_sub_ui(num_u.v, num_u.v, 1);
    mpz_sub(num.v, max_host.v, num_u.v);
  }
  if (mpz_cmp(num_u.v, max_host.v) > 0) {
    err = "prefix of " + std::to_string(parent_len) + " does not accommodate a host numbered " +
          num.str();
    return false;
  }
  int bit_length = to4(base.ip).empty() ? 128 : 32;
  if (!insert_num_into_ip(base.ip, num, bit_length, out)) {
    // go-cidr fails here without a message of its own (an index out of
    // range); the number is too large for the address.
    err = "prefix of " + std::to_string(parent_len) + " does not accommodate a host numbered " +
          num.str();
    return false;
  }
  return true;
}

// SubnetBig.
bool subnet_big(const IpNet& base, int64_t new_bits, const Z& num, IpNet& out, std::string& err) {
  auto [parent_len, addr_len] = mask_size(base.mask);
  // Go's int addition wraps; only absurd values get there.
  int64_t new_prefix_len = int64_t(uint64_t(parent_len) + uint64_t(new_bits));
  if (new_prefix_len > addr_len) {
    err = "insufficient address space to extend prefix of " + std::to_string(parent_len) + " by " +
          std::to_string(new_bits);
    return false;
  }
  // uint64(1 << uint64(newBits)) - 1: a shift of 64 or more (which a
  // negative count is, as unsigned) gives 0, so the maximum wraps around.
  uint64_t max_net = (new_bits < 0 || new_bits >= 64) ? UINT64_MAX : (uint64_t(1) << new_bits) - 1;
  if (low64(num) > max_net) {
    err = "prefix extension of " + std::to_string(new_bits) +
          " does not accommodate a subnet numbered " + num.str();
    return false;
  }
  if (!insert_num_into_ip(base.ip, num, new_prefix_len, out.ip)) {
    err = "prefix extension of " + std::to_string(new_bits) +
          " does not accommodate a subnet numbered " + num.str();
    return false;
  }
  out.mask = cidr_mask(new_prefix_len, addr_len);
  return true;
}

// AddressRange: the first and last addresses of [n].
std::pair<Bytes, Bytes> address_range(const IpNet& n) {
  const Bytes& first = n.ip;
  auto [prefix_len, bits] = mask_size(n.mask);
  if (prefix_len == bits) return {first, first};
  Z first_int, last;
  int ibits = ip_to_int(first, first_int);
  mpz_set_ui(last.v, 1);
  mpz_mul_2exp(last.v, last.v, mp_bitcnt_t(ibits - prefix_len));
  mpz_sub_ui(last.v, last.v, 1);
  mpz_ior(last.v, last.v, first_int.v);
  Bytes last_ip;
  int_to_ip(last, ibits, last_ip);
  return {first, last_ip};
}

Bytes check_ipv4(const Bytes& ip) {
  Bytes v4 = to4(ip);
  return v4.empty() ? ip : v4;
}

Bytes inc(Bytes ip) {
  ip = check_ipv4(ip);
  for (size_t j = ip.size(); j-- > 0;) {
    if (++ip[j] > 0) break;
  }
  return ip;
}

Bytes dec(Bytes ip) {
  ip = check_ipv4(ip);
  for (size_t j = ip.size(); j-- > 0;) {
    if (--ip[j] < 255) break;
  }
  return ip;
}

const Bytes& ipv4_zero() {
  static const Bytes z = ipv4(0, 0, 0, 0);
  return z;
}
const Bytes& ipv6_zero() {
  static const Bytes z(16, 0);
  return z;
}

// PreviousSubnet (the rollover flag is not used by cidrsubnets).
IpNet previous_subnet(const IpNet& n, int64_t prefix_len) {
  Bytes start = check_ipv4(n.ip);
  Bytes mask = cidr_mask(prefix_len, int64_t(8 * start.size()));
  return {ip_mask(dec(start), mask), mask};
}

// NextSubnet: the subnet and whether the address space rolled over.
IpNet next_subnet(const IpNet& n, int64_t prefix_len, bool& rollover) {
  Bytes current_last = address_range(n).second;
  Bytes mask = cidr_mask(prefix_len, int64_t(8 * current_last.size()));
  IpNet current{ip_mask(current_last, mask), mask};
  Bytes last = inc(address_range(current).second);
  rollover = ip_equal(last, ipv4_zero()) || ip_equal(last, ipv6_zero());
  return {ip_mask(last, mask), mask};
}

// --- the functions ------------------------------------------------------------

Function cidrhost_fn() {
  Function f;
  f.description =
      "Calculates a full host IP address for a given host number within a given IP network "
      "address prefix.";
  f.params = {param("prefix", Type::string()), param("hostnum", Type::number())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    Z num;
    std::string err;
    if (!to_big_int(args[1], num, err)) return FuncResult::fail(err);
    IpNet net;
    if (!parse_cidr(args[0].as_string(), net))
      return FuncResult::fail(invalid_cidr(args[0].as_string()));
    Bytes ip;
    if (!host_big(net, num, ip, err)) return FuncResult::fail(err);
    return FuncResult::of(Value::string(ip_string(ip)));
  };
  return f;
}

Function cidrnetmask_fn() {
  Function f;
  f.description =
      "Converts an IPv4 address prefix given in CIDR notation into a subnet mask address.";
  f.params = {param("prefix", Type::string())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    IpNet net;
    std::string_view prefix = args[0].as_string();
    if (!parse_cidr(prefix, net)) return FuncResult::fail(invalid_cidr(prefix));
    if (to4(net.ip).empty())
      return FuncResult::fail("IPv6 addresses cannot have a netmask: " + std::string(prefix));
    return FuncResult::of(Value::string(ip_string(net.mask)));
  };
  return f;
}

Function cidrsubnet_fn() {
  Function f;
  f.description = "Calculates a subnet address within a given IP network address prefix.";
  f.params = {param("prefix", Type::string()), param("newbits", Type::number()),
              param("netnum", Type::number())};
  f.returns(Type::string());
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    int64_t new_bits = 0;
    std::string err;
    if (!to_int(args[1], new_bits, err)) return FuncResult::fail(err);
    Z num;
    if (!to_big_int(args[2], num, err)) return FuncResult::fail(err);
    IpNet net;
    if (!parse_cidr(args[0].as_string(), net))
      return FuncResult::fail(invalid_cidr(args[0].as_string()));
    IpNet sub;
    if (!subnet_big(net, new_bits, num, sub, err)) return FuncResult::fail(err);
    return FuncResult::of(Value::string(net_string(sub)));
  };
  return f;
}

Function cidrsubnets_fn() {
  Function f;
  f.description =
      "Calculates a sequence of consecutive IP address ranges within a particular CIDR prefix.";
  f.params = {param("prefix", Type::string())};
  f.var_param = param("newbits", Type::number());
  f.returns(Type::list(Type::string()));
  f.result_not_null = true;
  f.impl = [](std::span<const Value> args, const Type*) {
    IpNet net;
    std::string_view prefix = args[0].as_string();
    if (!parse_cidr(prefix, net)) return arg_error(invalid_cidr(prefix), 0);
    const int start_len = mask_size(net.mask).first;
    if (args.size() == 1) return FuncResult::of(Value::list(Type::string(), {}));
    int64_t first = 0;
    std::string err;
    if (!to_int(args[1], first, err)) return arg_error(err, 1);
    IpNet current = previous_subnet(net, int64_t(uint64_t(first) + uint64_t(start_len)));
    std::vector<Value> out;
    for (size_t i = 1; i < args.size(); ++i) {
      int64_t length = 0;
      if (!to_int(args[i], length, err)) return arg_error(err, int(i));
      if (length < 1) return arg_error("must extend prefix by at least one bit", int(i));
      // Terraform allows at most 32 more bits in one call, for 32-bit
      // systems' sake (it matters for IPv6 only).
      if (length > 32) return arg_error("may not extend prefix by more than 32 bits", int(i));
      length += start_len;
      const int64_t bits = int64_t(net.ip.size() * 8);
      if (length > bits) {
        const char* protocol = bits == 32 ? "IPv4" : bits == 128 ? "IPv6" : "IP";
        return arg_error("would extend prefix to " + std::to_string(length) +
                             " bits, which is too long for an " + protocol + " address",
                         int(i));
      }
      bool rollover = false;
      IpNet next = next_subnet(current, length, rollover);
      if (rollover || !net_contains(net, next.ip)) {
        return arg_error("not enough remaining address space for a subnet with a prefix of " +
                             std::to_string(length) + " bits after " + net_string(current),
                         int(i));
      }
      current = next;
      out.push_back(Value::string(net_string(current)));
    }
    return FuncResult::of(Value::list(Type::string(), std::move(out)));
  };
  return f;
}

}  // namespace

void add_network_functions(FunctionTable& t, const LibraryOptions&) {
  add(t, "cidrhost", cidrhost_fn());
  add(t, "cidrnetmask", cidrnetmask_fn());
  add(t, "cidrsubnet", cidrsubnet_fn());
  add(t, "cidrsubnets", cidrsubnets_fn());
}

}  // namespace hclvm::funcs
