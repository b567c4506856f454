// Every parallel stage passes a helper thread's exception to its caller as
// an error (util/src/pawntb/util/threads.hpp): probe decode, check decode,
// verify, tier solve, table write, stats and the web API's batches. The failure is
// injected through util's fault hook on a helper thread (never the caller's),
// and the stage is then called as its users call it.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>

#include "pawntb/analysis.hpp"
#include "pawntb/check.hpp"
#include "pawntb/generator.hpp"
#include "pawntb/probe.hpp"
#include "pawntb/util/threads.hpp"
#include "serve/api.hpp"
#include "support/test_support.hpp"

namespace pawntb {
namespace {

using namespace pawntb_test;

struct InjectedFault : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The pool the fault is for, whether it was thrown, and by which thread.
std::string fault_pool;
std::atomic<bool> fault_thrown{false};
std::thread::id fault_thread;

// Throws from the first helper of pool `fault_pool` that finishes an item.
// The caller, worker 0, waits after its first item until that has happened,
// so that the helper always gets an item, and the failure always comes from
// a helper thread. (A pool run with one worker has no helper: left alone.)
void fail_in_a_helper(const util::FaultPoint& p) {
  if (p.event != util::FaultPoint::Event::item_done || p.pool != fault_pool) return;
  if (p.worker == 0) {
    if (p.workers > 1) fault_thrown.wait(false);
    return;
  }
  if (fault_thrown.exchange(true)) return;
  fault_thread = std::this_thread::get_id();
  fault_thrown.notify_all();
  throw InjectedFault("injected into " + fault_pool);
}

// Arms the fault for `pool` for the life of the object.
class FaultInHelper {
 public:
  explicit FaultInHelper(const char* pool) {
    fault_pool = pool;
    fault_thrown = false;
    fault_thread = {};
    util::fault_hook.store(fail_in_a_helper);
  }
  ~FaultInHelper() { util::fault_hook.store(nullptr); }
  FaultInHelper(const FaultInHelper&) = delete;
  FaultInHelper& operator=(const FaultInHelper&) = delete;
};

// `call` throws the injected fault, which a helper thread threw.
template <class Call>
void expect_helper_fault(const char* pool, Call call) {
  const FaultInHelper fault(pool);
  try {
    call();
    ADD_FAILURE() << pool << ": no exception reached the caller";
  } catch (const InjectedFault& e) {
    EXPECT_EQ(std::string(e.what()), "injected into " + std::string(pool));
  }
  EXPECT_TRUE(fault_thrown) << pool;
  EXPECT_NE(fault_thread, std::this_thread::get_id()) << pool << ": thrown by the caller";
}

// The 4x4 table: 5 blocks, 281,328 entries (2 stats chunks).
TEST(ParallelStages, ProbeDecode) {
  expect_helper_fault("probe decode", [] { Table::open(kDefaultTable, Table::Load::all, 2); });
  const Table lazy = Table::open(kDefaultTable, Table::Load::on_demand);
  expect_helper_fault("check decode", [&] { check::check_blocks(lazy, 2); });
  expect_helper_fault("check decode", [&] { check::tier_checksums(lazy, 2); });
  EXPECT_TRUE(check::check_blocks(lazy, 2).empty()) << "the table works after the failure";
}

// The 4x5 table (8.5 M entries): verify's segments have more than one chunk
// from 4.2 M entries on, and the solver's tiers from 16 Ki entries (the 4x4
// table's largest has 6,208).
SolvedTable solve_four_by_five() {
  return solve({4, 5}, 5, 2);
}

TEST(ParallelStages, Verify) {
  const TempDir dir;
  write_table(solve_four_by_five(), dir / "4x5.pawntb", 2);
  const Table table = Table::open(dir / "4x5.pawntb", Table::Load::all, 2);
  expect_helper_fault("verify", [&] { check::verify(table, std::uint64_t{1} << 30, {}, 2); });
}

TEST(ParallelStages, TierSolve) {
  expect_helper_fault("tier solve", [] { solve_four_by_five(); });
}

TEST(ParallelStages, TableWrite) {
  const SolvedTable table = solve({4, 4}, 4, 2);
  expect_helper_fault("table write", [&] { encode_table(table, 2); });
  // Written to a file: the error leaves the old file and no temporary one.
  const TempDir dir;
  write_file(dir / "t.pawntb", std::string_view("old"));
  expect_helper_fault("table write", [&] { write_table(table, dir / "t.pawntb", 2); });
  EXPECT_EQ(read_file(dir / "t.pawntb"), "old");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), {}), 1);
}

TEST(ParallelStages, Stats) {
  const Table table = Table::open(kDefaultTable, Table::Load::all, 2);
  analysis::StatsOptions options;
  options.threads = 2;
  expect_helper_fault("stats", [&] { analysis::compute_stats(table, options); });
}

// A damaged block makes a stats worker throw by itself: TableError reaches
// the caller.
TEST(ParallelStages, StatsOnADamagedTable) {
  const TempDir dir;
  std::vector<std::uint8_t> bytes = read_bytes(kDefaultTable);
  bytes[bytes.size() - 100] ^= 0x40;  // in the last block's frame
  write_file(dir / "damaged.pawntb", bytes);
  const Table table = Table::open(dir / "damaged.pawntb", Table::Load::on_demand);
  analysis::StatsOptions options;
  options.threads = 2;
  EXPECT_THROW(analysis::compute_stats(table, options), TableError);
}

// A batch from 32 KiB on is answered on two threads.
TEST(ParallelStages, ServeBatch) {
  const serve::Api api(serve::TableSet::open({kDefaultTable}));
  std::string body = "[";
  for (int i = 0; i < 4000; ++i) body += std::string(i ? "," : "") + "\"1ppp/4/1PPP/4 w\"";
  body += "]";
  ASSERT_GE(body.size(), 32u * 1024);
  expect_helper_fault("serve batch", [&] { api.positions(body); });
  EXPECT_EQ(api.positions(body).status, 200) << "the API works after the failure";
}

}  // namespace
}  // namespace pawntb
