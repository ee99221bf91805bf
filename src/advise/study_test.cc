// A whole `orrery advise` study (study.h) on a small generated data set with one hot
// tenant: the expected routing of each query under each key, the hot tenant's logical
// partition projected past 20 GB (its bytes summed here from the generated items), the
// physical partitions the scaled data needs, and the ranking that follows.

#include "advise/study.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "advise/item_sources.h"
#include "json/json.h"

namespace orrery::advise {
namespace {

json::Value J(std::string_view text) { return *json::Parse(text); }

constexpr const char* kSpec = R"({"count": 3000, "seed": 5, "fields": {
    "tenantId": {"type": "string", "prefix": "t-", "cardinality": 30, "distribution": "hot",
                 "factor": 30},
    "deviceId": {"type": "string", "prefix": "d-", "cardinality": 200},
    "value": {"type": "number", "min": 0, "max": 10}}})";

constexpr const char* kWorkload = R"({"operations": [
    {"name": "tenant", "share": 6, "query": "SELECT * FROM c WHERE c.tenantId = @t",
     "parameters": {"@t": "/tenantId"}},
    {"name": "device", "share": 2, "query": "SELECT * FROM c WHERE c.deviceId = @d",
     "parameters": {"@d": "/deviceId"}},
    {"name": "read", "share": 1, "kind": "read"},
    {"name": "create", "share": 1, "kind": "create"}]})";

class StudyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<Generator> generator = Generator::Parse(J(kSpec));
    ASSERT_TRUE(generator.ok());
    for (uint64_t i = 0; i < generator->count(); ++i) {
      const json::Value item = generator->Item(i);
      const size_t bytes = json::Write(item).size();
      tenant_bytes_[item.Find("tenantId")->as_string()] += static_cast<double>(bytes);
      pair_bytes_[item.Find("tenantId")->as_string() + "/" + item.Find("deviceId")->as_string()] +=
          static_cast<double>(bytes);
      total_bytes_ += static_cast<double>(bytes);
    }
    items_ = std::make_unique<GeneratedItems>(std::move(*generator));
  }

  StudyOptions Options() {
    StudyOptions options;
    for (const char* text : {"/tenantId", "/tenantId,/deviceId", "/deviceId"}) {
      options.candidates.push_back(*Candidate::Parse(text));
    }
    options.workload = *Workload::Parse(J(kWorkload));
    options.throughput = 4000;
    options.samples = 8;
    return options;
  }

  static double Largest(const std::map<std::string, double>& bytes) {
    double largest = 0;
    for (const auto& [key, b] : bytes) largest = std::max(largest, b);
    return largest;
  }

  std::unique_ptr<GeneratedItems> items_;
  std::map<std::string, double> tenant_bytes_, pair_bytes_;
  double total_bytes_ = 0;
};

const CandidateResult& Find(const StudyResult& study, const std::string& label) {
  for (const CandidateResult& c : study.ranking) {
    if (c.candidate.label() == label) return c;
  }
  ADD_FAILURE() << "no candidate " << label;
  return study.ranking.front();
}

std::string Routing(const CandidateResult& c, const std::string& op) {
  for (const OperationMeasure& m : c.operations) {
    if (m.name == op) return m.routing;
  }
  return "missing";
}

TEST_F(StudyTest, RoutesEachQueryAsItsKeyAllows) {
  StudyOptions options = Options();
  Result<StudyResult> study = RunStudy(*items_, options);
  ASSERT_TRUE(study.ok()) << study.status().ToString();
  ASSERT_EQ(study->ranking.size(), 3u);
  const CandidateResult& tenant = Find(*study, "/tenantId");
  const CandidateResult& both = Find(*study, "/tenantId,/deviceId");
  const CandidateResult& device = Find(*study, "/deviceId");
  EXPECT_EQ(Routing(tenant, "tenant"), "single partition");
  EXPECT_EQ(Routing(both, "tenant"), "hierarchical prefix");
  EXPECT_EQ(Routing(device, "tenant"), "fan-out");
  EXPECT_EQ(Routing(tenant, "device"), "fan-out");
  EXPECT_EQ(Routing(both, "device"), "fan-out");
  EXPECT_EQ(Routing(device, "device"), "single partition");
  EXPECT_EQ(Routing(device, "read"), "single partition");
  EXPECT_DOUBLE_EQ(device.fan_out_share, 0.6);
  EXPECT_DOUBLE_EQ(both.fan_out_share, 0.2);
  for (const CandidateResult& c : study->ranking) {
    EXPECT_EQ(c.items_loaded, 3000);
    EXPECT_EQ(c.items_refused, 0);
    for (const OperationMeasure& m : c.operations) {
      // Every run is charged at least a point read or a query page's base.
      EXPECT_GE(m.ru_median, 1.0) << c.candidate.label() << " " << m.name;
      EXPECT_GE(m.ru_p99, m.ru_median);
    }
  }
  // Every tenant in the data is one logical partition of /tenantId.
  EXPECT_EQ(tenant.logical.count, static_cast<int64_t>(tenant_bytes_.size()));
  EXPECT_EQ(both.logical.count, static_cast<int64_t>(pair_bytes_.size()));
  EXPECT_EQ(tenant.logical.largest_key, "[\"t-0\"]");
}

TEST_F(StudyTest, TheHotTenantPassesTheLimitAtScaleAndRanksLast) {
  StudyOptions options = Options();
  // Scale so that t-0's item JSON alone (stored items are larger) is 30 GB, and the
  // largest tenant/device pair stays far below 20 GB.
  options.scale = 30.0 * (uint64_t{1} << 30) / tenant_bytes_.at("t-0");
  ASSERT_LT(Largest(pair_bytes_) * options.scale * 3, kLogicalPartitionLimitBytes);
  options.yearly_growth = 1.0;
  Result<StudyResult> study = RunStudy(*items_, options);
  ASSERT_TRUE(study.ok()) << study.status().ToString();
  const CandidateResult& tenant = Find(*study, "/tenantId");
  EXPECT_TRUE(tenant.exceeds_limit);
  EXPECT_GE(tenant.logical.projected_largest_bytes, 30.0 * (uint64_t{1} << 30));
  EXPECT_EQ(study->ranking.back().candidate.label(), "/tenantId");
  EXPECT_NE(tenant.reasons.front().find("passes the 20 GB limit"), std::string::npos)
      << tenant.reasons.front();
  const CandidateResult& both = Find(*study, "/tenantId,/deviceId");
  EXPECT_FALSE(both.exceeds_limit);
  ASSERT_TRUE(both.logical.years_to_limit.has_value());
  // Doubling every year: log2 of the growth left.
  EXPECT_NEAR(*both.logical.years_to_limit, std::log2(both.logical.growth_to_limit), 1e-9);
  // Production's data needs at least this many 50 GB partitions; the sample split into
  // as many, and their storage shares cover it all.
  const double needed = std::ceil(total_bytes_ * options.scale / kPhysicalPartitionSplitBytes);
  for (const CandidateResult& c : study->ranking) {
    EXPECT_GE(static_cast<double>(c.physical.size()), needed) << c.candidate.label();
    EXPECT_EQ(c.splits, static_cast<int>(c.physical.size()) - c.initial_partitions);
    double storage = 0;
    for (const PhysicalPartitionMeasure& p : c.physical) storage += p.storage_share;
    EXPECT_NEAR(storage, 1.0, 1e-9);
  }
}

TEST_F(StudyTest, OneLoadingThreadGivesTheSameMeasurementsEveryTime) {
  // With more threads the items' creation order, and so which items a TOP query
  // returns first, depends on how the threads interleave.
  StudyOptions options = Options();
  options.threads = 1;
  Result<StudyResult> a = RunStudy(*items_, options);
  Result<StudyResult> b = RunStudy(*items_, options);
  ASSERT_TRUE(a.ok() && b.ok());
  for (size_t i = 0; i < a->ranking.size(); ++i) {
    EXPECT_EQ(a->ranking[i].candidate.label(), b->ranking[i].candidate.label());
    EXPECT_EQ(a->ranking[i].reasons, b->ranking[i].reasons);
    EXPECT_EQ(a->ranking[i].score, b->ranking[i].score);
  }
}

TEST_F(StudyTest, ADuplicateIdIsRefusedOnlyWithinItsLogicalPartition) {
  // Items 1 and 3 share id and tenant; item 4 has that id in another tenant. Loading
  // skips the engine's look-up of ids that cannot clash (load_order.h), so this checks
  // that a clash is still found, with two loading threads.
  Result<LineItems> lines = LineItems::FromText(
      R"({"id":"a","t":"x","v":1}
{"id":"b","t":"x","v":2}
{"id":"a","t":"x","v":3}
{"id":"c","t":"y","v":4}
{"id":"a","t":"y","v":5}
)",
      "items.jsonl");
  ASSERT_TRUE(lines.ok());
  StudyOptions options;
  options.candidates.push_back(*Candidate::Parse("/t"));
  options.candidates.push_back(*Candidate::Parse("/v"));
  options.workload = *Workload::Parse(J(R"({"operations":[{"share":1,"kind":"read"}]})"));
  options.threads = 2;
  Result<StudyResult> study = RunStudy(*lines, options);
  ASSERT_TRUE(study.ok()) << study.status().message();
  const CandidateResult& by_tenant = Find(*study, "/t");
  EXPECT_EQ(by_tenant.items_loaded, 4);
  EXPECT_EQ(by_tenant.items_refused, 1);
  EXPECT_NE(by_tenant.first_refusal.find("already exists"), std::string::npos)
      << by_tenant.first_refusal;
  EXPECT_EQ(by_tenant.logical.count, 2);
  // Under /v every item is its own logical partition: nothing clashes.
  const CandidateResult& by_value = Find(*study, "/v");
  EXPECT_EQ(by_value.items_loaded, 5);
  EXPECT_EQ(by_value.items_refused, 0);
}

TEST_F(StudyTest, ItemsThatCannotBeLoadedFailTheStudyNamingTheLine) {
  Result<LineItems> lines = LineItems::FromText("{\"id\":\"a\",\"t\":1}\n\n[1,2]\n", "items.jsonl");
  ASSERT_TRUE(lines.ok());
  StudyOptions options;
  options.candidates.push_back(*Candidate::Parse("/t"));
  options.workload = *Workload::Parse(J(R"({"operations":[{"share":1,"kind":"read"}]})"));
  Result<StudyResult> study = RunStudy(*lines, options);
  ASSERT_FALSE(study.ok());
  EXPECT_NE(study.status().message().find("items.jsonl line 3 is not a JSON object"),
            std::string::npos)
      << study.status().message();
}

}  // namespace
}  // namespace orrery::advise
