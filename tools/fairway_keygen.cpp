// fairway-keygen: makes the CURVE key pairs that agents and the coordinator authenticate
// each other with (docs/security.md): DIR/NAME.key (secret, 0600) and DIR/NAME.pub.
#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>

#include "shared/base/private_files.h"
#include "shared/net/curve_keys.h"

int main(int argc, char** argv) {
  CLI::App app{"fairway-keygen: CURVE key pairs for the coordinator and its agents"};
  std::vector<std::string> names;
  std::string dir = ".";
  app.add_option("name", names, "key pair names: 'coordinator', or node names")->required();
  app.add_option("-d,--dir", dir, "directory to write NAME.key and NAME.pub into");
  CLI11_PARSE(app, argc, argv);
  // A directory it makes is 0700: it will hold secret keys (each 0600 in any case).
  if (auto made = fairway::make_private_dir(dir); !made) {
    std::cerr << "fairway-keygen: " << made.error().message << "\n";
    return 1;
  }
  for (const std::string& name : names) {
    if (name.empty() || name.find('/') != std::string::npos) {
      std::cerr << "fairway-keygen: invalid name '" << name << "'\n";
      return 2;
    }
    auto keys = fairway::net::generate_curve_keypair();
    if (!keys) {
      std::cerr << "fairway-keygen: " << keys.error().message << "\n";
      return 1;
    }
    if (auto st = fairway::net::write_curve_keypair(dir, name, *keys); !st) {
      std::cerr << "fairway-keygen: " << st.error().message << "\n";
      return 1;
    }
    std::cout << dir << "/" << name << ".key " << dir << "/" << name << ".pub\n";
  }
  return 0;
}
