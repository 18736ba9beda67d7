// What the tests that run the program on a kernel tree share: every test's
// modules land in the build directory's cache, and the test tree's name.
#pragma once

#include <stdlib.h>

#include <string>

#include <gtest/gtest.h>

namespace ptespec::kernel_test {

struct cache_env : ::testing::Environment {
	void SetUp() override { setenv("PTESPEC_CACHE", PTESPEC_TEST_CACHE, 1); }
};
// One per test binary: each includes this header in one file.
inline const auto* const cache_environment = ::testing::AddGlobalTestEnvironment(new cache_env);

inline const std::string tree_name = "kernel-7.0.0-ptespec";

} // namespace ptespec::kernel_test
