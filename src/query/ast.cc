#include "query/ast.h"

#include <string_view>

#include "json/json.h"

namespace orrery::query::ast {

SubqueryExpr::SubqueryExpr(SourceRange r, SubqueryKind k, std::unique_ptr<Query> q)
    : Expr(ExprKind::kSubquery, r), subquery_kind(k), query(std::move(q)) {
  height = query->height + 1;
}
SubqueryExpr::~SubqueryExpr() = default;

namespace {

std::string_view BinaryOpText(BinaryOp op) {
  switch (op) {
    case BinaryOp::kMultiply:
      return "*";
    case BinaryOp::kDivide:
      return "/";
    case BinaryOp::kModulo:
      return "%";
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSubtract:
      return "-";
    case BinaryOp::kShiftLeft:
      return "<<";
    case BinaryOp::kShiftRight:
      return ">>";
    case BinaryOp::kShiftRightZeroFill:
      return ">>>";
    case BinaryOp::kLess:
      return "<";
    case BinaryOp::kLessEqual:
      return "<=";
    case BinaryOp::kGreater:
      return ">";
    case BinaryOp::kGreaterEqual:
      return ">=";
    case BinaryOp::kEqual:
      return "=";
    case BinaryOp::kNotEqual:
      return "!=";
    case BinaryOp::kBitAnd:
      return "&";
    case BinaryOp::kBitXor:
      return "^";
    case BinaryOp::kBitOr:
      return "|";
    case BinaryOp::kConcat:
      return "||";
    case BinaryOp::kAnd:
      return "AND";
    case BinaryOp::kOr:
      return "OR";
    case BinaryOp::kCoalesce:
      return "??";
  }
  return "?";
}

std::string_view UnaryOpText(UnaryOp op) {
  switch (op) {
    case UnaryOp::kNegate:
      return "-";
    case UnaryOp::kPlus:
      return "+";
    case UnaryOp::kBitNot:
      return "~";
    case UnaryOp::kNot:
      return "NOT ";
  }
  return "?";
}

void AppendExpr(std::string& out, const Expr& expr);
void AppendQuery(std::string& out, const Query& query);

void AppendList(std::string& out, const std::vector<ExprPtr>& list) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (i > 0) {
      out += ", ";
    }
    AppendExpr(out, *list[i]);
  }
}

void AppendLiteral(std::string& out, const json::Value& value) {
  if (value.is_undefined()) {
    out += "undefined";
  } else {
    json::AppendTo(out, value);
  }
}

void AppendExpr(std::string& out, const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::kLiteral:
      AppendLiteral(out, As<LiteralExpr>(expr).value);
      return;
    case ExprKind::kParameter:
      out += As<ParameterExpr>(expr).name;
      return;
    case ExprKind::kIdentifier:
      out += As<IdentifierExpr>(expr).name;
      return;
    case ExprKind::kProperty: {
      const auto& e = As<PropertyExpr>(expr);
      AppendExpr(out, *e.object);
      if (e.quoted) {
        out += '[';
        json::AppendQuoted(out, e.name);
        out += ']';
      } else {
        out += '.';
        out += e.name;
      }
      return;
    }
    case ExprKind::kIndex: {
      const auto& e = As<IndexExpr>(expr);
      AppendExpr(out, *e.object);
      out += '[';
      AppendExpr(out, *e.index);
      out += ']';
      return;
    }
    case ExprKind::kUnary: {
      const auto& e = As<UnaryExpr>(expr);
      out += '(';
      out += UnaryOpText(e.op);
      AppendExpr(out, *e.operand);
      out += ')';
      return;
    }
    case ExprKind::kBinary: {
      const auto& e = As<BinaryExpr>(expr);
      out += '(';
      AppendExpr(out, *e.left);
      out += ' ';
      out += BinaryOpText(e.op);
      out += ' ';
      AppendExpr(out, *e.right);
      out += ')';
      return;
    }
    case ExprKind::kBetween: {
      const auto& e = As<BetweenExpr>(expr);
      out += '(';
      AppendExpr(out, *e.value);
      out += e.negated ? " NOT BETWEEN " : " BETWEEN ";
      AppendExpr(out, *e.low);
      out += " AND ";
      AppendExpr(out, *e.high);
      out += ')';
      return;
    }
    case ExprKind::kIn: {
      const auto& e = As<InExpr>(expr);
      out += '(';
      AppendExpr(out, *e.value);
      out += e.negated ? " NOT IN (" : " IN (";
      AppendList(out, e.list);
      out += "))";
      return;
    }
    case ExprKind::kLike: {
      const auto& e = As<LikeExpr>(expr);
      out += '(';
      AppendExpr(out, *e.value);
      out += e.negated ? " NOT LIKE " : " LIKE ";
      AppendExpr(out, *e.pattern);
      if (e.escape) {
        out += " ESCAPE ";
        json::AppendQuoted(out, *e.escape);
      }
      out += ')';
      return;
    }
    case ExprKind::kConditional: {
      const auto& e = As<ConditionalExpr>(expr);
      out += '(';
      AppendExpr(out, *e.condition);
      out += " ? ";
      AppendExpr(out, *e.if_true);
      out += " : ";
      AppendExpr(out, *e.if_false);
      out += ')';
      return;
    }
    case ExprKind::kArray:
      out += '[';
      AppendList(out, As<ArrayExpr>(expr).elements);
      out += ']';
      return;
    case ExprKind::kObject: {
      const auto& members = As<ObjectExpr>(expr).members;
      out += '{';
      for (size_t i = 0; i < members.size(); ++i) {
        if (i > 0) {
          out += ", ";
        }
        json::AppendQuoted(out, members[i].first);
        out += ": ";
        AppendExpr(out, *members[i].second);
      }
      out += '}';
      return;
    }
    case ExprKind::kCall: {
      const auto& e = As<CallExpr>(expr);
      if (e.is_udf) {
        out += "udf.";
      }
      out += e.name;
      out += '(';
      AppendList(out, e.args);
      out += ')';
      return;
    }
    case ExprKind::kSubquery: {
      const auto& e = As<SubqueryExpr>(expr);
      if (e.subquery_kind == SubqueryKind::kExists) {
        out += "EXISTS";
      } else if (e.subquery_kind == SubqueryKind::kArray) {
        out += "ARRAY";
      }
      out += '(';
      AppendQuery(out, *e.query);
      out += ')';
      return;
    }
  }
}

void AppendSelect(std::string& out, const SelectClause& select) {
  out += "SELECT ";
  if (select.distinct) {
    out += "DISTINCT ";
  }
  if (select.top) {
    out += "TOP ";
    AppendExpr(out, *select.top);
    out += ' ';
  }
  switch (select.kind) {
    case SelectKind::kStar:
      out += '*';
      return;
    case SelectKind::kValue:
      out += "VALUE ";
      AppendExpr(out, *select.value);
      return;
    case SelectKind::kList:
      for (size_t i = 0; i < select.items.size(); ++i) {
        if (i > 0) {
          out += ", ";
        }
        AppendExpr(out, *select.items[i].expr);
        if (select.items[i].alias) {
          out += " AS ";
          out += *select.items[i].alias;
        }
      }
      return;
  }
}

void AppendSource(std::string& out, const FromSource& source) {
  switch (source.kind) {
    case SourceKind::kCollection:
      AppendExpr(out, *source.collection);
      out += " AS ";
      out += source.alias;
      return;
    case SourceKind::kIterate:
      out += source.alias;
      out += " IN ";
      AppendExpr(out, *source.collection);
      return;
    case SourceKind::kSubquery:
      out += '(';
      AppendQuery(out, *source.subquery);
      out += ") AS ";
      out += source.alias;
      return;
    case SourceKind::kIterateSubquery:
      out += source.alias;
      out += " IN (";
      AppendQuery(out, *source.subquery);
      out += ')';
      return;
  }
}

void AppendQuery(std::string& out, const Query& query) {
  AppendSelect(out, query.select);
  for (size_t i = 0; i < query.from.size(); ++i) {
    out += i == 0 ? " FROM " : " JOIN ";
    AppendSource(out, query.from[i]);
  }
  if (query.where) {
    out += " WHERE ";
    AppendExpr(out, *query.where);
  }
  if (!query.group_by.empty()) {
    out += " GROUP BY ";
    AppendList(out, query.group_by);
  }
  if (!query.order_by.empty()) {
    out += query.order_by_rank ? " ORDER BY RANK " : " ORDER BY ";
    for (size_t i = 0; i < query.order_by.size(); ++i) {
      if (i > 0) {
        out += ", ";
      }
      AppendExpr(out, *query.order_by[i].expr);
      if (!query.order_by_rank) {
        out += query.order_by[i].descending ? " DESC" : " ASC";
      }
    }
  }
  if (query.offset) {
    out += " OFFSET ";
    AppendExpr(out, *query.offset);
    out += " LIMIT ";
    AppendExpr(out, *query.limit);
  }
}

bool SameList(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) {
  if (a.size() != b.size()) {
    return false;
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (!SameExpr(*a[i], *b[i])) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::string ToString(const Expr& expr) {
  std::string out;
  AppendExpr(out, expr);
  return out;
}

std::string ToString(const Query& query) {
  std::string out;
  AppendQuery(out, query);
  return out;
}

bool SameExpr(const Expr& a, const Expr& b) {
  if (a.kind != b.kind) {
    return false;
  }
  switch (a.kind) {
    case ExprKind::kLiteral: {
      const json::Value& x = As<LiteralExpr>(a).value;
      const json::Value& y = As<LiteralExpr>(b).value;
      return x.type() == y.type() && x == y;
    }
    case ExprKind::kParameter:
      return As<ParameterExpr>(a).name == As<ParameterExpr>(b).name;
    case ExprKind::kIdentifier:
      return As<IdentifierExpr>(a).name == As<IdentifierExpr>(b).name;
    case ExprKind::kProperty: {
      const auto& x = As<PropertyExpr>(a);
      const auto& y = As<PropertyExpr>(b);
      return x.name == y.name && SameExpr(*x.object, *y.object);
    }
    case ExprKind::kIndex: {
      const auto& x = As<IndexExpr>(a);
      const auto& y = As<IndexExpr>(b);
      return SameExpr(*x.object, *y.object) && SameExpr(*x.index, *y.index);
    }
    case ExprKind::kUnary: {
      const auto& x = As<UnaryExpr>(a);
      const auto& y = As<UnaryExpr>(b);
      return x.op == y.op && SameExpr(*x.operand, *y.operand);
    }
    case ExprKind::kBinary: {
      const auto& x = As<BinaryExpr>(a);
      const auto& y = As<BinaryExpr>(b);
      return x.op == y.op && SameExpr(*x.left, *y.left) && SameExpr(*x.right, *y.right);
    }
    case ExprKind::kBetween: {
      const auto& x = As<BetweenExpr>(a);
      const auto& y = As<BetweenExpr>(b);
      return x.negated == y.negated && SameExpr(*x.value, *y.value) && SameExpr(*x.low, *y.low) &&
             SameExpr(*x.high, *y.high);
    }
    case ExprKind::kIn: {
      const auto& x = As<InExpr>(a);
      const auto& y = As<InExpr>(b);
      return x.negated == y.negated && SameExpr(*x.value, *y.value) && SameList(x.list, y.list);
    }
    case ExprKind::kLike: {
      const auto& x = As<LikeExpr>(a);
      const auto& y = As<LikeExpr>(b);
      return x.negated == y.negated && x.escape == y.escape && SameExpr(*x.value, *y.value) &&
             SameExpr(*x.pattern, *y.pattern);
    }
    case ExprKind::kConditional: {
      const auto& x = As<ConditionalExpr>(a);
      const auto& y = As<ConditionalExpr>(b);
      return SameExpr(*x.condition, *y.condition) && SameExpr(*x.if_true, *y.if_true) &&
             SameExpr(*x.if_false, *y.if_false);
    }
    case ExprKind::kArray:
      return SameList(As<ArrayExpr>(a).elements, As<ArrayExpr>(b).elements);
    case ExprKind::kObject: {
      const auto& x = As<ObjectExpr>(a).members;
      const auto& y = As<ObjectExpr>(b).members;
      if (x.size() != y.size()) {
        return false;
      }
      for (size_t i = 0; i < x.size(); ++i) {
        if (x[i].first != y[i].first || !SameExpr(*x[i].second, *y[i].second)) {
          return false;
        }
      }
      return true;
    }
    case ExprKind::kCall: {
      const auto& x = As<CallExpr>(a);
      const auto& y = As<CallExpr>(b);
      // Built-in names are case-insensitive; compare them as the binder resolved them.
      const bool same_function = x.function != nullptr ? x.function == y.function
                                                       : (x.name == y.name && x.is_udf == y.is_udf);
      return same_function && SameList(x.args, y.args);
    }
    case ExprKind::kSubquery:
      // Subqueries are never matched to GROUP BY keys.
      return false;
  }
  return false;
}

void VisitChildren(Expr& expr, const std::function<void(ExprPtr&)>& fn) {
  switch (expr.kind) {
    case ExprKind::kLiteral:
    case ExprKind::kParameter:
    case ExprKind::kIdentifier:
    case ExprKind::kSubquery:
      return;
    case ExprKind::kProperty:
      fn(As<PropertyExpr>(expr).object);
      return;
    case ExprKind::kIndex:
      fn(As<IndexExpr>(expr).object);
      fn(As<IndexExpr>(expr).index);
      return;
    case ExprKind::kUnary:
      fn(As<UnaryExpr>(expr).operand);
      return;
    case ExprKind::kBinary:
      fn(As<BinaryExpr>(expr).left);
      fn(As<BinaryExpr>(expr).right);
      return;
    case ExprKind::kBetween: {
      auto& e = As<BetweenExpr>(expr);
      fn(e.value);
      fn(e.low);
      fn(e.high);
      return;
    }
    case ExprKind::kIn: {
      auto& e = As<InExpr>(expr);
      fn(e.value);
      for (ExprPtr& item : e.list) {
        fn(item);
      }
      return;
    }
    case ExprKind::kLike:
      fn(As<LikeExpr>(expr).value);
      fn(As<LikeExpr>(expr).pattern);
      return;
    case ExprKind::kConditional: {
      auto& e = As<ConditionalExpr>(expr);
      fn(e.condition);
      fn(e.if_true);
      fn(e.if_false);
      return;
    }
    case ExprKind::kArray:
      for (ExprPtr& element : As<ArrayExpr>(expr).elements) {
        fn(element);
      }
      return;
    case ExprKind::kObject:
      for (auto& member : As<ObjectExpr>(expr).members) {
        fn(member.second);
      }
      return;
    case ExprKind::kCall:
      for (ExprPtr& arg : As<CallExpr>(expr).args) {
        fn(arg);
      }
      return;
  }
}

bool IsPropertyPath(const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::kIdentifier:
      return true;
    case ExprKind::kProperty:
      return IsPropertyPath(*As<PropertyExpr>(expr).object);
    case ExprKind::kIndex: {
      const auto& e = As<IndexExpr>(expr);
      return e.index->kind == ExprKind::kLiteral && As<LiteralExpr>(*e.index).value.is_number() &&
             IsPropertyPath(*e.object);
    }
    default:
      return false;
  }
}

}  // namespace orrery::query::ast
