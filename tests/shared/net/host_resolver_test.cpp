// The CLI's resolver without NSS: numeric addresses, a hosts file, and DNS answered by a
// small server of the test's own on 127.0.0.1.
#include "shared/net/host_resolver.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace fairway::net {
namespace {

std::string text_of(const ResolvedAddress& a) {
  char buf[INET6_ADDRSTRLEN] = {};
  if (a.family == AF_INET) {
    const auto* v4 = reinterpret_cast<const sockaddr_in*>(&a.address);
    ::inet_ntop(AF_INET, &v4->sin_addr, buf, sizeof buf);
    return std::string(buf) + ":" + std::to_string(ntohs(v4->sin_port));
  }
  const auto* v6 = reinterpret_cast<const sockaddr_in6*>(&a.address);
  ::inet_ntop(AF_INET6, &v6->sin6_addr, buf, sizeof buf);
  return "[" + std::string(buf) + "]:" + std::to_string(ntohs(v6->sin6_port));
}

class HostResolverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/fairway-resolver-test.XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    hosts_ = dir_ + "/hosts";
    std::ofstream(hosts_) << "# a comment line\n"
                             "127.0.0.1 localhost\n"
                             "10.0.0.5\tcoord.cluster  Coord   # the coordinator\n"
                             "fd00::5 coord.cluster\n"
                             "not-an-address broken.cluster\n";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  ResolverSources files_only() const { return ResolverSources{hosts_, false, 0}; }
  std::string dir_, hosts_;
};

TEST_F(HostResolverTest, NumericAddressesNeedNoLookup) {
  auto v4 = resolve_host("192.0.2.7", 6818, files_only());
  ASSERT_TRUE(v4);
  ASSERT_EQ(v4->size(), 1u);
  EXPECT_EQ(text_of((*v4)[0]), "192.0.2.7:6818");
  auto v6 = resolve_host("[::1]", 7, files_only());
  ASSERT_TRUE(v6);
  EXPECT_EQ(text_of((*v6)[0]), "[::1]:7");
}

TEST_F(HostResolverTest, TheHostsFileGivesEveryAddressOfANameAndIgnoresCase) {
  auto r = resolve_host("coord", 6818, files_only());
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ(text_of((*r)[0]), "10.0.0.5:6818");
  auto both = resolve_host("COORD.cluster", 1, files_only());
  ASSERT_TRUE(both);
  ASSERT_EQ(both->size(), 2u);
  EXPECT_EQ(text_of((*both)[0]), "10.0.0.5:1");
  EXPECT_EQ(text_of((*both)[1]), "[fd00::5]:1");
}

TEST_F(HostResolverTest, UnknownNamesAndOddCharactersAreErrorsThatSayWhat) {
  auto missing = resolve_host("nowhere.cluster", 1, files_only());
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message.find("cannot resolve host \"nowhere.cluster\""), std::string::npos);
  EXPECT_NE(missing.error().message.find(hosts_), std::string::npos);
  EXPECT_FALSE(resolve_host("broken.cluster", 1, files_only()));  // its address is not one
  auto odd = resolve_host("evil host;rm", 1, files_only());
  ASSERT_FALSE(odd);
  EXPECT_NE(odd.error().message.find("a character a host name cannot have"), std::string::npos);
  EXPECT_FALSE(resolve_host("", 1, files_only()));
}

// Answers every A query with 10.9.8.7 and every other query with no records.
class FakeDns {
 public:
  FakeDns() {
    fd_ = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
    socklen_t len = sizeof addr;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len);
    port_ = ntohs(addr.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~FakeDns() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  std::uint16_t port() const { return port_; }
  int queries() const { return queries_; }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 20) != 1) continue;
      unsigned char q[512];
      sockaddr_in from{};
      socklen_t len = sizeof from;
      const ssize_t n = ::recvfrom(fd_, q, sizeof q, 0, reinterpret_cast<sockaddr*>(&from), &len);
      if (n < 12) continue;
      ++queries_;
      // The question ends after its name (labels up to a zero byte) and 4 bytes of type/class.
      std::size_t at = 12;
      while (at < static_cast<std::size_t>(n) && q[at] != 0) at += q[at] + 1;
      const std::size_t question_end = at + 5;
      if (question_end > static_cast<std::size_t>(n)) continue;
      const bool type_a = q[at + 1] == 0 && q[at + 2] == 1;
      std::string r(reinterpret_cast<char*>(q), question_end);
      r[2] = static_cast<char>(0x81);  // a response, recursion desired
      r[3] = static_cast<char>(0x80);  // recursion available, no error
      r[6] = 0;
      r[7] = type_a ? 1 : 0;  // answers
      r[8] = r[9] = r[10] = r[11] = 0;
      if (type_a) {
        const unsigned char answer[] = {0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 10, 9, 8, 7};
        r.append(reinterpret_cast<const char*>(answer), sizeof answer);
      }
      ::sendto(fd_, r.data(), r.size(), 0, reinterpret_cast<sockaddr*>(&from), len);
    }
  }
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> queries_{0};
  std::thread thread_;
};

TEST_F(HostResolverTest, NamesNotInTheHostsFileAreAskedOfDns) {
  FakeDns dns;
  ResolverSources sources{hosts_, true, dns.port()};
  auto r = resolve_host("login.example.test", 6820, sources);
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ(text_of((*r)[0]), "10.9.8.7:6820");
  EXPECT_GE(dns.queries(), 2);  // A and AAAA
  // The hosts file comes first: no query for a name it has.
  const int before = dns.queries();
  auto local = resolve_host("coord", 1, sources);
  ASSERT_TRUE(local);
  EXPECT_EQ(text_of((*local)[0]), "10.0.0.5:1");
  EXPECT_EQ(dns.queries(), before);
}

}  // namespace
}  // namespace fairway::net
