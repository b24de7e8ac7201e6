#include "coordinator/daemon/sqlite_db.h"

#include <gtest/gtest.h>

#include "tests/coordinator/daemon/store_test_fixture.h"

namespace fairway::daemon {
namespace {

class SqliteDbTest : public StoreTest {
 protected:
  void SetUp() override {
    StoreTest::SetUp();
    auto opened = SqliteDb::open((dir_ / "t.db").string());
    ASSERT_TRUE(opened) << opened.error().message;
    db_ = std::move(*opened);
    ASSERT_TRUE(db_->exec("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT UNIQUE)", "create"));
  }
  std::unique_ptr<SqliteDb> db_;
};

TEST_F(SqliteDbTest, CachedStatementsAreReusedAndResetAfterEachUse) {
  SqliteStatement* first = nullptr;
  for (int k = 1; k <= 3; ++k) {
    auto insert = db_->prepare_cached("INSERT INTO t (k, v) VALUES (?1, ?2)");
    ASSERT_TRUE(insert) << insert.error().message;
    if (first == nullptr) first = &**insert;
    EXPECT_EQ(&**insert, first);
    ASSERT_TRUE((*insert)->bind_int64(1, k));
    ASSERT_TRUE((*insert)->bind_text(2, "v" + std::to_string(k)));
    auto done = (*insert)->step();
    ASSERT_TRUE(done) << done.error().message;
    EXPECT_FALSE(*done);
  }
  {
    // Abandoned after one row: the borrow's end must reset it, or the next use would resume.
    auto select = db_->prepare_cached("SELECT k FROM t ORDER BY k");
    ASSERT_TRUE(select);
    ASSERT_TRUE((*select)->step().value_or(false));
    EXPECT_EQ((*select)->column_int64(0), 1);
  }
  auto select = db_->prepare_cached("SELECT k FROM t ORDER BY k");
  ASSERT_TRUE(select);
  ASSERT_TRUE((*select)->step().value_or(false));
  EXPECT_EQ((*select)->column_int64(0), 1);
}

TEST_F(SqliteDbTest, ConstraintViolationsAreAlreadyExistsOtherFailuresIo) {
  ASSERT_TRUE(db_->exec("INSERT INTO t VALUES (1, 'a')", "seed"));
  auto dup = db_->exec("INSERT INTO t VALUES (2, 'a')", "insert a duplicate");
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error().code, ErrorCode::kAlreadyExists);
  EXPECT_NE(dup.error().message.find("insert a duplicate"), std::string::npos);
  EXPECT_NE(dup.error().message.find("UNIQUE constraint failed"), std::string::npos) << dup.error().message;

  auto bad = db_->prepare_cached("SELECT nope FROM t");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code, ErrorCode::kIo);
  EXPECT_NE(bad.error().message.find("SELECT nope FROM t"), std::string::npos);
  EXPECT_NE(bad.error().message.find("no such column"), std::string::npos) << bad.error().message;
}

TEST_F(SqliteDbTest, ABlobBindingKeepsZeroBytesAndEmptiness) {
  ASSERT_TRUE(db_->exec("CREATE TABLE b (x BLOB)", "create"));
  const std::string bytes("\x00z\x00", 3);
  for (const std::string& value : {bytes, std::string()}) {
    {
      auto insert = db_->prepare_cached("INSERT INTO b VALUES (?1)");
      ASSERT_TRUE(insert);
      ASSERT_TRUE((*insert)->bind_blob(1, value));
      ASSERT_TRUE((*insert)->step());
    }
    auto select = db_->prepare_cached("SELECT x FROM b ORDER BY rowid DESC LIMIT 1");
    ASSERT_TRUE(select);
    ASSERT_TRUE((*select)->step().value_or(false));
    EXPECT_EQ((*select)->column_type(0), SQLITE_BLOB);
    EXPECT_EQ((*select)->column_blob(0), value);
  }
}

TEST_F(SqliteDbTest, AnUnopenablePathIsAnErrorNamingIt) {
  const std::string path = (dir_ / "missing-dir" / "x.db").string();
  auto db = SqliteDb::open(path);
  ASSERT_FALSE(db);
  EXPECT_EQ(db.error().code, ErrorCode::kIo);
  EXPECT_NE(db.error().message.find(path), std::string::npos) << db.error().message;
}

}  // namespace
}  // namespace fairway::daemon
