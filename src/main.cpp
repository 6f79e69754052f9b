#include <iostream>

#include "clawperator/cli/app.hpp"

int main(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  return clawperator::cli::run(argc, argv, std::cout, std::cerr);
}
