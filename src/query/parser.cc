#include "query/parser.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/stack.h"
#include "query/errors.h"
#include "query/lexer.h"
#include "query/limits.h"

namespace orrery::query {
namespace {

using ast::ExprPtr;

// Unwinds the recursive descent to Parse() on the first error; it never leaves this
// file (style.md: no exception crosses a public header).
struct ParseFailure {
  Status status;
};

// Runs of AND, OR, ?? and || up to this many terms are built left-deep, as written;
// longer runs as balanced trees (see kMaxExpressionDepth in limits.h).
constexpr size_t kLongestLeftDeepRun = 64;

// AND, OR, ?? and || give the same value however their operands are grouped (the
// three-valued AND and OR of query-language.md §4.3 included), and none has a side
// effect, so a long run of one of them may be regrouped into a balanced tree.
bool IsAssociative(ast::BinaryOp op) {
  return op == ast::BinaryOp::kAnd || op == ast::BinaryOp::kOr || op == ast::BinaryOp::kCoalesce ||
         op == ast::BinaryOp::kConcat;
}

SourceRange Span(SourceRange from, SourceRange to) { return SourceRange{from.start, to.end}; }

// The binary operators of levels 11 (||) to 3 (* / %) of query-language.md §3.1, with
// their binding strength: a larger strength binds tighter.
struct BinaryOperator {
  ast::BinaryOp op;
  size_t strength;
};

std::optional<BinaryOperator> BinaryOperatorOf(TokenKind kind) {
  using ast::BinaryOp;
  switch (kind) {
    case TokenKind::kConcat:
      return BinaryOperator{BinaryOp::kConcat, 0};
    case TokenKind::kBitOr:
      return BinaryOperator{BinaryOp::kBitOr, 1};
    case TokenKind::kBitXor:
      return BinaryOperator{BinaryOp::kBitXor, 2};
    case TokenKind::kBitAnd:
      return BinaryOperator{BinaryOp::kBitAnd, 3};
    case TokenKind::kEqual:
      return BinaryOperator{BinaryOp::kEqual, 4};
    case TokenKind::kNotEqual:
      return BinaryOperator{BinaryOp::kNotEqual, 4};
    case TokenKind::kLess:
      return BinaryOperator{BinaryOp::kLess, 5};
    case TokenKind::kLessEqual:
      return BinaryOperator{BinaryOp::kLessEqual, 5};
    case TokenKind::kGreater:
      return BinaryOperator{BinaryOp::kGreater, 5};
    case TokenKind::kGreaterEqual:
      return BinaryOperator{BinaryOp::kGreaterEqual, 5};
    case TokenKind::kShiftLeft:
      return BinaryOperator{BinaryOp::kShiftLeft, 6};
    case TokenKind::kShiftRight:
      return BinaryOperator{BinaryOp::kShiftRight, 6};
    case TokenKind::kShiftRightZeroFill:
      return BinaryOperator{BinaryOp::kShiftRightZeroFill, 6};
    case TokenKind::kPlus:
      return BinaryOperator{BinaryOp::kAdd, 7};
    case TokenKind::kMinus:
      return BinaryOperator{BinaryOp::kSubtract, 7};
    case TokenKind::kStar:
      return BinaryOperator{BinaryOp::kMultiply, 8};
    case TokenKind::kSlash:
      return BinaryOperator{BinaryOp::kDivide, 8};
    case TokenKind::kPercent:
      return BinaryOperator{BinaryOp::kModulo, 8};
    default:
      return std::nullopt;
  }
}

class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens)
      : text_(text), tokens_(std::move(tokens)) {}

  std::unique_ptr<ast::Query> ParseWholeQuery() {
    auto query = ParseQuery();
    Expect(TokenKind::kEnd);
    return query;
  }

  ExprPtr ParseWholeExpression() {
    ExprPtr expr = ParseScalar();
    Expect(TokenKind::kEnd);
    return expr;
  }

 private:
  // ---- Token access ----

  const Token& Peek(size_t ahead = 0) const {
    const size_t index = std::min(pos_ + ahead, tokens_.size() - 1);
    return tokens_[index];
  }
  bool At(TokenKind kind) const { return Peek().kind == kind; }
  const Token& Advance() {
    const Token& token = tokens_[pos_];
    if (pos_ + 1 < tokens_.size()) {
      ++pos_;
    }
    last_end_ = token.range.end;
    last_range_ = token.range;
    return token;
  }
  bool Accept(TokenKind kind) {
    if (!At(kind)) {
      return false;
    }
    Advance();
    return true;
  }
  const Token& Expect(TokenKind kind) {
    if (!At(kind)) {
      Fail();
    }
    return Advance();
  }
  [[noreturn]] void Fail() const {
    const Token& token = Peek();
    if (token.kind == TokenKind::kEnd) {
      throw ParseFailure{UnexpectedEndOfInput(text_)};
    }
    throw ParseFailure{SyntaxErrorNear(text_, token.range)};
  }
  SourceRange From(SourceRange start) const { return SourceRange{start.start, last_end_}; }

  // ---- Limits (limits.h) ----

  [[noreturn]] void FailLimit(SourceRange range, const std::string& message) const {
    throw ParseFailure{QueryError(text_, range, kSemanticError, message)};
  }

  // Refuses to recurse once the stack of this thread runs short, whatever the limits
  // admit: a safety net under them (common/stack.h).
  void CheckStack() const {
    if (StackExhausted()) {
      FailLimit(Peek().range, std::string(kStackExhaustedMessage));
    }
  }

  // One level of nesting, held by every construct that parses a sub-expression or a
  // subquery recursively, so that no input can recurse past kMaxNestingDepth. Made
  // just after the token that opens the level, which is where an error points.
  class Nested {
   public:
    explicit Nested(Parser& parser) : parser_(parser) {
      if (parser_.nesting_ == kMaxNestingDepth) {
        parser_.FailLimit(parser_.last_range_,
                          "The SQL query nests parentheses, brackets, braces, function calls, "
                          "subqueries and prefix operators more than " +
                              std::to_string(kMaxNestingDepth) + " levels deep.");
      }
      parser_.CheckStack();
      ++parser_.nesting_;  // only once nothing can throw: the destructor undoes it
    }
    ~Nested() { --parser_.nesting_; }
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;

   private:
    Parser& parser_;
  };

  // Makes a node and refuses it when the tree has grown taller than kMaxExpressionDepth:
  // operator chains and property paths grow the tree without nesting in the text.
  template <typename Node, typename... Args>
  ExprPtr Make(Args&&... args) {
    auto node = std::make_unique<Node>(std::forward<Args>(args)...);
    if (node->height > kMaxExpressionDepth) {
      FailLimit(node->range, "An expression of the SQL query is more than " +
                                 std::to_string(kMaxExpressionDepth) +
                                 " operators, property accesses or function calls deep. Long "
                                 "chains of AND, OR, ?? and || have no such limit; write other "
                                 "long chains with IN or ARRAY_CONTAINS, or split them.");
    }
    return node;
  }

  // ---- Query ----

  std::unique_ptr<ast::Query> ParseQuery() {
    CheckStack();
    auto query = std::make_unique<ast::Query>();
    const SourceRange start = Peek().range;
    ParseSelect(query->select);
    if (Accept(TokenKind::kFrom)) {
      query->from.push_back(ParseSource());
      while (At(TokenKind::kJoin)) {
        const SourceRange join = Peek().range;
        Expect(TokenKind::kJoin);
        if (query->from.size() > kMaxJoins) {
          throw ParseFailure{QueryError(
              text_, join, kSemanticError,
              "The query exceeds the maximum of " + std::to_string(kMaxJoins) + " JOINs.")};
        }
        query->from.push_back(ParseSource());
      }
    }
    if (Accept(TokenKind::kWhere)) {
      query->where = ParseScalar();
    }
    if (Accept(TokenKind::kGroup)) {
      Expect(TokenKind::kBy);
      do {
        query->group_by.push_back(ParseScalar());
      } while (Accept(TokenKind::kComma));
    }
    if (Accept(TokenKind::kOrder)) {
      Expect(TokenKind::kBy);
      ParseOrderBy(*query);
    }
    if (Accept(TokenKind::kOffset)) {
      query->offset = ParseCount();
      Expect(TokenKind::kLimit);
      query->limit = ParseCount();
    }
    query->range = From(start);
    query->height = QueryHeight(*query);
    return query;
  }

  // The tallest expression of the query's clauses and sources (ast::Query::height).
  static uint32_t QueryHeight(const ast::Query& query) {
    uint32_t tallest = 0;
    const auto see = [&tallest](const ast::Expr* expr) {
      if (expr != nullptr) {
        tallest = std::max(tallest, expr->height);
      }
    };
    see(query.select.top.get());
    see(query.select.value.get());
    for (const ast::SelectItem& item : query.select.items) {
      see(item.expr.get());
    }
    for (const ast::FromSource& source : query.from) {
      see(source.collection.get());
      if (source.subquery) {
        tallest = std::max(tallest, source.subquery->height + 1);
      }
    }
    see(query.where.get());
    for (const ExprPtr& key : query.group_by) {
      see(key.get());
    }
    for (const ast::SortItem& item : query.order_by) {
      see(item.expr.get());
    }
    see(query.offset.get());
    see(query.limit.get());
    return tallest;
  }

  void ParseSelect(ast::SelectClause& select) {
    const SourceRange start = Expect(TokenKind::kSelect).range;
    select.distinct = Accept(TokenKind::kDistinct);
    if (Accept(TokenKind::kTop)) {
      select.top = ParseCount();
    }
    if (Accept(TokenKind::kStar)) {
      select.kind = ast::SelectKind::kStar;
    } else if (Accept(TokenKind::kValue)) {
      select.kind = ast::SelectKind::kValue;
      select.value = ParseScalar();
    } else {
      select.kind = ast::SelectKind::kList;
      do {
        select.items.push_back(ParseSelectItem());
      } while (Accept(TokenKind::kComma));
    }
    select.range = From(start);
  }

  ast::SelectItem ParseSelectItem() {
    ast::SelectItem item;
    const SourceRange start = Peek().range;
    item.expr = ParseScalar();
    if (Accept(TokenKind::kAs)) {
      item.alias = Expect(TokenKind::kIdentifier).string_value;
    } else if (At(TokenKind::kIdentifier)) {
      item.alias = Advance().string_value;
    }
    item.range = From(start);
    return item;
  }

  // TOP, OFFSET and LIMIT take an integer literal or a parameter.
  ExprPtr ParseCount() {
    const Token& token = Peek();
    if (token.kind == TokenKind::kNumber && token.is_integer) {
      Advance();
      return std::make_unique<ast::LiteralExpr>(token.range, json::Value::Int(token.integer_value));
    }
    if (token.kind == TokenKind::kParameter) {
      Advance();
      return std::make_unique<ast::ParameterExpr>(token.range, token.string_value);
    }
    Fail();
  }

  ast::FromSource ParseSource() {
    ast::FromSource source;
    const SourceRange start = Peek().range;
    if (At(TokenKind::kIdentifier) && Peek(1).kind == TokenKind::kIn) {
      const Token& alias = Advance();
      source.kind = ast::SourceKind::kIterate;
      source.alias = alias.string_value;
      source.alias_range = alias.range;
      Advance();  // IN
      if (At(TokenKind::kLeftParen) && Peek(1).kind == TokenKind::kSelect) {
        // alias IN (query): the grammar's `collection = "(" query ")"` (query-language.md
        // §3). No alias follows; the iteration variable is the alias.
        Advance();
        source.kind = ast::SourceKind::kIterateSubquery;
        source.subquery = ParseNestedQuery();
        Expect(TokenKind::kRightParen);
      } else {
        source.collection = ParseCollection();
      }
    } else if (At(TokenKind::kLeftParen) && Peek(1).kind == TokenKind::kSelect) {
      Advance();
      source.kind = ast::SourceKind::kSubquery;
      source.subquery = ParseNestedQuery();
      Expect(TokenKind::kRightParen);
      ParseSourceAlias(source, /*required=*/true);
    } else {
      source.kind = ast::SourceKind::kCollection;
      source.collection = ParseCollection();
      ParseSourceAlias(source, /*required=*/false);
    }
    source.range = From(start);
    return source;
  }

  // A subquery in FROM or JOIN: one level of nesting.
  std::unique_ptr<ast::Query> ParseNestedQuery() {
    const Nested nested(*this);
    return ParseQuery();
  }

  // [[AS] identifier]; without one, a path source is named after its last segment.
  void ParseSourceAlias(ast::FromSource& source, bool required) {
    const bool has_as = Accept(TokenKind::kAs);
    if (has_as || required || At(TokenKind::kIdentifier)) {
      const Token& alias = Expect(TokenKind::kIdentifier);
      source.alias = alias.string_value;
      source.alias_range = alias.range;
      return;
    }
    const ast::Expr& collection = *source.collection;
    if (collection.kind == ast::ExprKind::kIdentifier) {
      source.alias = ast::As<ast::IdentifierExpr>(collection).name;
    } else if (collection.kind == ast::ExprKind::kProperty) {
      source.alias = ast::As<ast::PropertyExpr>(collection).name;
    } else {
      Fail();  // `FROM c.a[0]` needs an alias
    }
    source.alias_range = collection.range;
  }

  // identifier { .name | [number] | ["name"] }
  ExprPtr ParseCollection() {
    const Token& root = Expect(TokenKind::kIdentifier);
    ExprPtr expr = std::make_unique<ast::IdentifierExpr>(root.range, root.string_value);
    while (true) {
      if (Accept(TokenKind::kDot)) {
        const Token& name = Expect(TokenKind::kIdentifier);
        expr = Make<ast::PropertyExpr>(Span(root.range, name.range), std::move(expr),
                                       name.string_value, false);
      } else if (Accept(TokenKind::kLeftBracket)) {
        const Token& key = Peek();
        if (key.kind == TokenKind::kString) {
          Advance();
          Expect(TokenKind::kRightBracket);
          expr = Make<ast::PropertyExpr>(From(root.range), std::move(expr), key.string_value, true);
        } else if (key.kind == TokenKind::kNumber && key.is_integer) {
          Advance();
          auto index =
              std::make_unique<ast::LiteralExpr>(key.range, json::Value::Int(key.integer_value));
          Expect(TokenKind::kRightBracket);
          expr = Make<ast::IndexExpr>(From(root.range), std::move(expr), std::move(index));
        } else {
          Fail();
        }
      } else {
        return expr;
      }
    }
  }

  void ParseOrderBy(ast::Query& query) {
    if (Accept(TokenKind::kRank)) {
      query.order_by_rank = true;
      query.order_by.push_back(ast::SortItem{ParseScalar(), false});
      query.order_by_rank_direction = Accept(TokenKind::kDesc) || Accept(TokenKind::kAsc);
      return;
    }
    do {
      ast::SortItem item;
      item.expr = ParseScalar();
      if (Accept(TokenKind::kDesc)) {
        item.descending = true;
      } else {
        Accept(TokenKind::kAsc);
      }
      query.order_by.push_back(std::move(item));
    } while (Accept(TokenKind::kComma));
  }

  // ---- Scalar expressions, loosest binding first (query-language.md §3.1) ----

  ExprPtr ParseScalar() {
    CheckStack();
    ExprPtr condition = ParseCoalesce();
    if (!Accept(TokenKind::kQuestion)) {
      return condition;
    }
    const Nested nested(*this);
    ExprPtr if_true = ParseScalar();
    Expect(TokenKind::kColon);
    ExprPtr if_false = ParseScalar();  // right-associative
    const SourceRange range = From(condition->range);
    return Make<ast::ConditionalExpr>(range, std::move(condition), std::move(if_true),
                                      std::move(if_false));
  }

  ExprPtr ParseCoalesce() {
    return ParseRun(TokenKind::kCoalesce, ast::BinaryOp::kCoalesce, [this] { return ParseOr(); });
  }

  ExprPtr ParseOr() {
    return ParseRun(TokenKind::kOr, ast::BinaryOp::kOr, [this] { return ParseAnd(); });
  }

  ExprPtr ParseAnd() {
    return ParseRun(TokenKind::kAnd, ast::BinaryOp::kAnd, [this] { return ParsePredicate(); });
  }

  // operand { separator operand }: one run of an associative operator.
  template <typename ParseOperand>
  ExprPtr ParseRun(TokenKind separator, ast::BinaryOp op, ParseOperand parse_operand) {
    ExprPtr first = parse_operand();
    if (!At(separator)) {
      return first;
    }
    std::vector<ExprPtr> operands;
    operands.push_back(std::move(first));
    while (Accept(separator)) {
      operands.push_back(parse_operand());
    }
    return JoinRun(op, std::move(operands));
  }

  // The tree of a run of one associative operator: left-deep as written when short,
  // balanced when long, so that no run is deeper than about log2 of its length.
  ExprPtr JoinRun(ast::BinaryOp op, std::vector<ExprPtr> operands) {
    if (operands.size() <= kLongestLeftDeepRun) {
      ExprPtr tree = std::move(operands.front());
      for (size_t i = 1; i < operands.size(); ++i) {
        tree = MakeBinary(op, std::move(tree), std::move(operands[i]));
      }
      return tree;
    }
    return Balanced(op, operands, 0, operands.size());
  }

  ExprPtr Balanced(ast::BinaryOp op, std::vector<ExprPtr>& operands, size_t begin, size_t end) {
    if (end - begin == 1) {
      return std::move(operands[begin]);
    }
    const size_t middle = begin + (end - begin) / 2;
    ExprPtr left = Balanced(op, operands, begin, middle);
    ExprPtr right = Balanced(op, operands, middle, end);
    return MakeBinary(op, std::move(left), std::move(right));
  }

  // [NOT] IN (...), [NOT] LIKE, [NOT] BETWEEN over level-11 (||) operands.
  ExprPtr ParsePredicate() {
    ExprPtr value = ParseBinary(0);
    bool negated = false;
    if (At(TokenKind::kNot) &&
        (Peek(1).kind == TokenKind::kIn || Peek(1).kind == TokenKind::kLike ||
         Peek(1).kind == TokenKind::kBetween)) {
      Advance();
      negated = true;
    }
    if (Accept(TokenKind::kIn)) {
      Expect(TokenKind::kLeftParen);
      std::vector<ExprPtr> list;
      {
        const Nested nested(*this);
        do {
          if (list.size() == kMaxInListItems) {
            FailLimit(Peek().range, "The IN list exceeds the maximum of " +
                                        std::to_string(kMaxInListItems) + " items.");
          }
          list.push_back(ParseScalar());
        } while (Accept(TokenKind::kComma));
      }
      Expect(TokenKind::kRightParen);
      const SourceRange range = From(value->range);
      return Make<ast::InExpr>(range, std::move(value), std::move(list), negated);
    }
    if (Accept(TokenKind::kLike)) {
      ExprPtr pattern = ParseBinary(0);
      std::optional<std::string> escape;
      if (Accept(TokenKind::kEscape)) {
        escape = Expect(TokenKind::kString).string_value;
      }
      const SourceRange range = From(value->range);
      return Make<ast::LikeExpr>(range, std::move(value), std::move(pattern), std::move(escape),
                                 negated);
    }
    if (Accept(TokenKind::kBetween)) {
      ExprPtr low = ParseBinary(0);
      Expect(TokenKind::kAnd);
      ExprPtr high = ParseBinary(0);
      const SourceRange range = From(value->range);
      return Make<ast::BetweenExpr>(range, std::move(value), std::move(low), std::move(high),
                                    negated);
    }
    return value;
  }

  // Binary operators from || (strength 0) to * / % (strength 8) by precedence climbing:
  // one frame per operand rather than one per precedence level, and operators of equal
  // strength associate to the left. A run of || is joined as JoinRun does.
  ExprPtr ParseBinary(size_t min_strength) {
    ExprPtr left = ParseUnary();
    std::vector<ExprPtr> concat_run;
    while (true) {
      const std::optional<BinaryOperator> found = BinaryOperatorOf(Peek().kind);
      if (!found || found->strength < min_strength) {
        break;
      }
      Advance();
      ExprPtr right = ParseBinary(found->strength + 1);
      if (IsAssociative(found->op)) {
        if (concat_run.empty()) {
          concat_run.push_back(std::move(left));
        }
        concat_run.push_back(std::move(right));
        continue;
      }
      if (!concat_run.empty()) {
        left = JoinRun(ast::BinaryOp::kConcat, std::move(concat_run));
        concat_run.clear();
      }
      left = MakeBinary(found->op, std::move(left), std::move(right));
    }
    if (!concat_run.empty()) {
      left = JoinRun(ast::BinaryOp::kConcat, std::move(concat_run));
    }
    return left;
  }

  // NOT is a tight prefix operator here, as in the SDK grammar: `NOT a = b` is
  // `(NOT a) = b` (query-language.md §3.1).
  ExprPtr ParseUnary() {
    const SourceRange start = Peek().range;
    ast::UnaryOp op;
    switch (Peek().kind) {
      case TokenKind::kMinus:
        op = ast::UnaryOp::kNegate;
        break;
      case TokenKind::kPlus:
        op = ast::UnaryOp::kPlus;
        break;
      case TokenKind::kBitNot:
        op = ast::UnaryOp::kBitNot;
        break;
      case TokenKind::kNot:
        op = ast::UnaryOp::kNot;
        break;
      default:
        return ParsePostfix(ParsePrimary());
    }
    Advance();
    const Nested nested(*this);
    ExprPtr operand = ParseUnary();
    return Make<ast::UnaryExpr>(From(start), op, std::move(operand));
  }

  ExprPtr ParsePostfix(ExprPtr expr) {
    while (true) {
      if (Accept(TokenKind::kDot)) {
        const Token& name = Expect(TokenKind::kIdentifier);
        const SourceRange range = From(expr->range);
        expr = Make<ast::PropertyExpr>(range, std::move(expr), name.string_value, false);
      } else if (Accept(TokenKind::kLeftBracket)) {
        ExprPtr index;
        {
          const Nested nested(*this);
          index = ParseScalar();
        }
        Expect(TokenKind::kRightBracket);
        const SourceRange range = From(expr->range);
        if (index->kind == ast::ExprKind::kLiteral &&
            ast::As<ast::LiteralExpr>(*index).value.is_string()) {
          std::string name = ast::As<ast::LiteralExpr>(*index).value.as_string();
          expr = Make<ast::PropertyExpr>(range, std::move(expr), std::move(name), true);
        } else {
          expr = Make<ast::IndexExpr>(range, std::move(expr), std::move(index));
        }
      } else {
        return expr;
      }
    }
  }

  ExprPtr ParsePrimary() {
    const Token& token = Peek();
    switch (token.kind) {
      case TokenKind::kIdentifier:
        Advance();
        if (At(TokenKind::kLeftParen)) {
          return ParseCall(token, token.string_value, false);
        }
        return std::make_unique<ast::IdentifierExpr>(token.range, token.string_value);
      case TokenKind::kLeft:
      case TokenKind::kRight:
        // Reserved words that are also function names.
        Advance();
        if (!At(TokenKind::kLeftParen)) {
          Fail();
        }
        return ParseCall(token, std::string(token.text), false);
      case TokenKind::kUdf: {
        Advance();
        Expect(TokenKind::kDot);
        const Token& name = Expect(TokenKind::kIdentifier);
        if (!At(TokenKind::kLeftParen)) {
          Fail();
        }
        return ParseCall(token, name.string_value, true);
      }
      case TokenKind::kParameter:
        Advance();
        return std::make_unique<ast::ParameterExpr>(token.range, token.string_value);
      case TokenKind::kNumber:
        Advance();
        return std::make_unique<ast::LiteralExpr>(
            token.range, token.is_integer ? json::Value::Int(token.integer_value)
                                          : json::Value::Double(token.number_value));
      case TokenKind::kString:
        Advance();
        return std::make_unique<ast::LiteralExpr>(token.range,
                                                  json::Value::String(token.string_value));
      case TokenKind::kTrue:
      case TokenKind::kFalse:
        Advance();
        return std::make_unique<ast::LiteralExpr>(
            token.range, json::Value::Bool(token.kind == TokenKind::kTrue));
      case TokenKind::kNull:
        Advance();
        return std::make_unique<ast::LiteralExpr>(token.range, json::Value::Null());
      case TokenKind::kUndefined:
        Advance();
        return std::make_unique<ast::LiteralExpr>(token.range, json::Value());
      case TokenKind::kLeftBracket:
        return ParseArray();
      case TokenKind::kLeftBrace:
        return ParseObject();
      case TokenKind::kLeftParen:
        return ParseParenthesized();
      case TokenKind::kExists:
        return ParseSubqueryCall(ast::SubqueryKind::kExists);
      case TokenKind::kArray:
        return ParseSubqueryCall(ast::SubqueryKind::kArray);
      default:
        Fail();
    }
  }

  // At '(' after a function name; `start` is the first token of the call.
  ExprPtr ParseCall(const Token& start, std::string name, bool is_udf) {
    const SourceRange name_range = From(start.range);
    Expect(TokenKind::kLeftParen);
    std::vector<ExprPtr> args;
    if (!At(TokenKind::kRightParen)) {
      const Nested nested(*this);
      do {
        args.push_back(ParseScalar());
      } while (Accept(TokenKind::kComma));
    }
    Expect(TokenKind::kRightParen);
    return Make<ast::CallExpr>(From(start.range), std::move(name), name_range, is_udf,
                               std::move(args));
  }

  ExprPtr ParseArray() {
    const SourceRange start = Advance().range;
    std::vector<ExprPtr> elements;
    if (!At(TokenKind::kRightBracket)) {
      const Nested nested(*this);
      do {
        elements.push_back(ParseScalar());
      } while (Accept(TokenKind::kComma));
    }
    Expect(TokenKind::kRightBracket);
    return Make<ast::ArrayExpr>(From(start), std::move(elements));
  }

  ExprPtr ParseObject() {
    const SourceRange start = Advance().range;
    std::vector<std::pair<std::string, ExprPtr>> members;
    if (!At(TokenKind::kRightBrace)) {
      const Nested nested(*this);
      do {
        if (!At(TokenKind::kIdentifier) && !At(TokenKind::kString)) {
          Fail();
        }
        std::string name = Advance().string_value;
        Expect(TokenKind::kColon);
        members.emplace_back(std::move(name), ParseScalar());
      } while (Accept(TokenKind::kComma));
    }
    Expect(TokenKind::kRightBrace);
    return Make<ast::ObjectExpr>(From(start), std::move(members));
  }

  ExprPtr ParseParenthesized() {
    const SourceRange start = Advance().range;
    const Nested nested(*this);
    if (At(TokenKind::kSelect)) {
      auto query = ParseQuery();
      Expect(TokenKind::kRightParen);
      return Make<ast::SubqueryExpr>(From(start), ast::SubqueryKind::kScalar, std::move(query));
    }
    ExprPtr inner = ParseScalar();
    Expect(TokenKind::kRightParen);
    return inner;
  }

  ExprPtr ParseSubqueryCall(ast::SubqueryKind kind) {
    const SourceRange start = Advance().range;
    Expect(TokenKind::kLeftParen);
    if (!At(TokenKind::kSelect)) {
      Fail();
    }
    auto query = ParseNestedQuery();
    Expect(TokenKind::kRightParen);
    return Make<ast::SubqueryExpr>(From(start), kind, std::move(query));
  }

  ExprPtr MakeBinary(ast::BinaryOp op, ExprPtr left, ExprPtr right) {
    const SourceRange range = Span(left->range, right->range);
    return Make<ast::BinaryExpr>(range, op, std::move(left), std::move(right));
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  size_t nesting_ = 0;  // levels of Nested held now
  uint32_t last_end_ = 0;
  SourceRange last_range_;  // of the token Advance() returned last
};

template <typename T, typename Fn>
Result<T> RunParser(std::string_view text, Fn fn) {
  ORRERY_ASSIGN_OR_RETURN(std::vector<Token> tokens, Lex(text));
  Parser parser(text, std::move(tokens));
  try {
    return fn(parser);
  } catch (ParseFailure& failure) {
    return std::move(failure.status);
  }
}

}  // namespace

Result<std::unique_ptr<ast::Query>> Parse(std::string_view text) {
  return RunParser<std::unique_ptr<ast::Query>>(
      text, [](Parser& parser) { return parser.ParseWholeQuery(); });
}

Result<ast::ExprPtr> ParseExpression(std::string_view text) {
  return RunParser<ast::ExprPtr>(text,
                                 [](Parser& parser) { return parser.ParseWholeExpression(); });
}

}  // namespace orrery::query
