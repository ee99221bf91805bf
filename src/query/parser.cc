#include "query/parser.h"

#include <utility>
#include <vector>

#include "query/errors.h"
#include "query/lexer.h"

namespace orrery::query {
namespace {

using ast::ExprPtr;

// Unwinds the recursive descent to Parse() on the first error; it never leaves this
// file (style.md: no exception crosses a public header).
struct ParseFailure {
  Status status;
};

constexpr size_t kMaxJoins = 10;

SourceRange Span(SourceRange from, SourceRange to) { return SourceRange{from.start, to.end}; }

// One binary precedence level: the operators it accepts, loosest level first.
struct BinaryLevel {
  std::vector<std::pair<TokenKind, ast::BinaryOp>> operators;
};

const std::vector<BinaryLevel>& BinaryLevels() {
  using ast::BinaryOp;
  static const std::vector<BinaryLevel> kLevels = {
      {{{TokenKind::kConcat, BinaryOp::kConcat}}},
      {{{TokenKind::kBitOr, BinaryOp::kBitOr}}},
      {{{TokenKind::kBitXor, BinaryOp::kBitXor}}},
      {{{TokenKind::kBitAnd, BinaryOp::kBitAnd}}},
      {{{TokenKind::kEqual, BinaryOp::kEqual}, {TokenKind::kNotEqual, BinaryOp::kNotEqual}}},
      {{{TokenKind::kLess, BinaryOp::kLess},
        {TokenKind::kLessEqual, BinaryOp::kLessEqual},
        {TokenKind::kGreater, BinaryOp::kGreater},
        {TokenKind::kGreaterEqual, BinaryOp::kGreaterEqual}}},
      {{{TokenKind::kShiftLeft, BinaryOp::kShiftLeft},
        {TokenKind::kShiftRight, BinaryOp::kShiftRight},
        {TokenKind::kShiftRightZeroFill, BinaryOp::kShiftRightZeroFill}}},
      {{{TokenKind::kPlus, BinaryOp::kAdd}, {TokenKind::kMinus, BinaryOp::kSubtract}}},
      {{{TokenKind::kStar, BinaryOp::kMultiply},
        {TokenKind::kSlash, BinaryOp::kDivide},
        {TokenKind::kPercent, BinaryOp::kModulo}}},
  };
  return kLevels;
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

  // ---- Query ----

  std::unique_ptr<ast::Query> ParseQuery() {
    auto query = std::make_unique<ast::Query>();
    const SourceRange start = Peek().range;
    ParseSelect(query->select);
    if (Accept(TokenKind::kFrom)) {
      query->from.push_back(ParseSource());
      while (At(TokenKind::kJoin)) {
        const SourceRange join = Peek().range;
        Expect(TokenKind::kJoin);
        // The service allows at most 10 JOINs per query (query-language.md §4.12, §6).
        if (query->from.size() > kMaxJoins) {
          throw ParseFailure{QueryError(text_, join, kSemanticError,
                                        "The query exceeds the maximum of 10 JOINs.")};
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
    return query;
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
        source.subquery = ParseQuery();
        Expect(TokenKind::kRightParen);
      } else {
        source.collection = ParseCollection();
      }
    } else if (At(TokenKind::kLeftParen) && Peek(1).kind == TokenKind::kSelect) {
      Advance();
      source.kind = ast::SourceKind::kSubquery;
      source.subquery = ParseQuery();
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
        expr = std::make_unique<ast::PropertyExpr>(Span(root.range, name.range), std::move(expr),
                                                   name.string_value, false);
      } else if (Accept(TokenKind::kLeftBracket)) {
        const Token& key = Peek();
        if (key.kind == TokenKind::kString) {
          Advance();
          Expect(TokenKind::kRightBracket);
          expr = std::make_unique<ast::PropertyExpr>(From(root.range), std::move(expr),
                                                     key.string_value, true);
        } else if (key.kind == TokenKind::kNumber && key.is_integer) {
          Advance();
          auto index =
              std::make_unique<ast::LiteralExpr>(key.range, json::Value::Int(key.integer_value));
          Expect(TokenKind::kRightBracket);
          expr =
              std::make_unique<ast::IndexExpr>(From(root.range), std::move(expr), std::move(index));
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
    ExprPtr condition = ParseCoalesce();
    if (!Accept(TokenKind::kQuestion)) {
      return condition;
    }
    ExprPtr if_true = ParseScalar();
    Expect(TokenKind::kColon);
    ExprPtr if_false = ParseScalar();  // right-associative
    const SourceRange range = From(condition->range);
    return std::make_unique<ast::ConditionalExpr>(range, std::move(condition), std::move(if_true),
                                                  std::move(if_false));
  }

  ExprPtr ParseCoalesce() {
    ExprPtr left = ParseOr();
    while (Accept(TokenKind::kCoalesce)) {
      ExprPtr right = ParseOr();
      left = MakeBinary(ast::BinaryOp::kCoalesce, std::move(left), std::move(right));
    }
    return left;
  }

  ExprPtr ParseOr() {
    ExprPtr left = ParseAnd();
    while (Accept(TokenKind::kOr)) {
      ExprPtr right = ParseAnd();
      left = MakeBinary(ast::BinaryOp::kOr, std::move(left), std::move(right));
    }
    return left;
  }

  ExprPtr ParseAnd() {
    ExprPtr left = ParsePredicate();
    while (Accept(TokenKind::kAnd)) {
      ExprPtr right = ParsePredicate();
      left = MakeBinary(ast::BinaryOp::kAnd, std::move(left), std::move(right));
    }
    return left;
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
      do {
        list.push_back(ParseScalar());
      } while (Accept(TokenKind::kComma));
      Expect(TokenKind::kRightParen);
      const SourceRange range = From(value->range);
      return std::make_unique<ast::InExpr>(range, std::move(value), std::move(list), negated);
    }
    if (Accept(TokenKind::kLike)) {
      ExprPtr pattern = ParseBinary(0);
      std::optional<std::string> escape;
      if (Accept(TokenKind::kEscape)) {
        escape = Expect(TokenKind::kString).string_value;
      }
      const SourceRange range = From(value->range);
      return std::make_unique<ast::LikeExpr>(range, std::move(value), std::move(pattern),
                                             std::move(escape), negated);
    }
    if (Accept(TokenKind::kBetween)) {
      ExprPtr low = ParseBinary(0);
      Expect(TokenKind::kAnd);
      ExprPtr high = ParseBinary(0);
      const SourceRange range = From(value->range);
      return std::make_unique<ast::BetweenExpr>(range, std::move(value), std::move(low),
                                                std::move(high), negated);
    }
    return value;
  }

  ExprPtr ParseBinary(size_t level) {
    const auto& levels = BinaryLevels();
    if (level == levels.size()) {
      return ParseUnary();
    }
    ExprPtr left = ParseBinary(level + 1);
    while (true) {
      bool matched = false;
      for (const auto& [token, op] : levels[level].operators) {
        if (Accept(token)) {
          ExprPtr right = ParseBinary(level + 1);
          left = MakeBinary(op, std::move(left), std::move(right));
          matched = true;
          break;
        }
      }
      if (!matched) {
        return left;
      }
    }
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
    ExprPtr operand = ParseUnary();
    return std::make_unique<ast::UnaryExpr>(From(start), op, std::move(operand));
  }

  ExprPtr ParsePostfix(ExprPtr expr) {
    while (true) {
      if (Accept(TokenKind::kDot)) {
        const Token& name = Expect(TokenKind::kIdentifier);
        const SourceRange range = From(expr->range);
        expr =
            std::make_unique<ast::PropertyExpr>(range, std::move(expr), name.string_value, false);
      } else if (Accept(TokenKind::kLeftBracket)) {
        ExprPtr index = ParseScalar();
        Expect(TokenKind::kRightBracket);
        const SourceRange range = From(expr->range);
        if (index->kind == ast::ExprKind::kLiteral &&
            ast::As<ast::LiteralExpr>(*index).value.is_string()) {
          std::string name = ast::As<ast::LiteralExpr>(*index).value.as_string();
          expr = std::make_unique<ast::PropertyExpr>(range, std::move(expr), std::move(name), true);
        } else {
          expr = std::make_unique<ast::IndexExpr>(range, std::move(expr), std::move(index));
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
      do {
        args.push_back(ParseScalar());
      } while (Accept(TokenKind::kComma));
    }
    Expect(TokenKind::kRightParen);
    return std::make_unique<ast::CallExpr>(From(start.range), std::move(name), name_range, is_udf,
                                           std::move(args));
  }

  ExprPtr ParseArray() {
    const SourceRange start = Advance().range;
    std::vector<ExprPtr> elements;
    if (!At(TokenKind::kRightBracket)) {
      do {
        elements.push_back(ParseScalar());
      } while (Accept(TokenKind::kComma));
    }
    Expect(TokenKind::kRightBracket);
    return std::make_unique<ast::ArrayExpr>(From(start), std::move(elements));
  }

  ExprPtr ParseObject() {
    const SourceRange start = Advance().range;
    std::vector<std::pair<std::string, ExprPtr>> members;
    if (!At(TokenKind::kRightBrace)) {
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
    return std::make_unique<ast::ObjectExpr>(From(start), std::move(members));
  }

  ExprPtr ParseParenthesized() {
    const SourceRange start = Advance().range;
    if (At(TokenKind::kSelect)) {
      auto query = ParseQuery();
      Expect(TokenKind::kRightParen);
      return std::make_unique<ast::SubqueryExpr>(From(start), ast::SubqueryKind::kScalar,
                                                 std::move(query));
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
    auto query = ParseQuery();
    Expect(TokenKind::kRightParen);
    return std::make_unique<ast::SubqueryExpr>(From(start), kind, std::move(query));
  }

  ExprPtr MakeBinary(ast::BinaryOp op, ExprPtr left, ExprPtr right) {
    const SourceRange range = Span(left->range, right->range);
    return std::make_unique<ast::BinaryExpr>(range, op, std::move(left), std::move(right));
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  uint32_t last_end_ = 0;
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
