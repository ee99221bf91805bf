// VectorDistance (functions_vector.cc), against values worked out by hand.

#include <gtest/gtest.h>

#include <cmath>

#include "json/json.h"
#include "query/query_test_util.h"

namespace orrery::query {
namespace {

using testing::Eval;

double Number(const std::string& rows) {
  auto parsed = json::Parse(rows);
  EXPECT_TRUE(parsed.ok() && parsed->is_array() && parsed->as_array().size() == 1) << rows;
  return parsed->as_array()[0].as_double();
}

TEST(VectorFunctionsTest, DistanceFunctions) {
  // cos 45° = √½; the dot product 3·1 + 4·0 = 3; the distance of (3,4) from (0,0) is 5.
  EXPECT_NEAR(Number(Eval("VectorDistance([1, 0], [1, 1])")), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(
      Number(Eval("VectorDistance([3, 4], [1, 0], false, {'distanceFunction': 'dotproduct'})")), 3,
      1e-15);
  EXPECT_NEAR(
      Number(Eval("VectorDistance([3, 4], [0, 0], true, {'distanceFunction': 'Euclidean'})")), 5,
      1e-15);
  EXPECT_NEAR(
      Number(Eval("VectorDistance([1, 2], [-1, -2], false, {'distanceFunction': 'cosine'})")), -1,
      1e-15);
}

TEST(VectorFunctionsTest, NoScoreForWhatIsNotAPairOfVectors) {
  for (const char* call :
       {"VectorDistance([1, 2], [1, 2, 3])", "VectorDistance([], [])", "VectorDistance('a', [1])",
        "VectorDistance([1, 'x'], [1, 2])", "VectorDistance([[1], [2]], [[1], [2]])",
        "VectorDistance([0, 0], [1, 1])", "VectorDistance([1], [1], 'yes')"}) {
    EXPECT_EQ(Eval(call), "[]") << call;
  }
}

TEST(VectorFunctionsTest, UnknownOptionsAreAQueryError) {
  EXPECT_NE(Eval("VectorDistance([1], [1], false, {'distanceFunction': 'manhattan'})")
                .find("Invalid distanceFunction"),
            std::string::npos);
  EXPECT_NE(
      Eval("VectorDistance([1], [1], false, {'dataType': 'float64'})").find("Invalid dataType"),
      std::string::npos);
  EXPECT_NE(Eval("VectorDistance([1], [1], false, 'cosine')").find("object of options"),
            std::string::npos);
}

}  // namespace
}  // namespace orrery::query
