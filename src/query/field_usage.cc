#include "query/field_usage.h"

#include <algorithm>

namespace orrery::query {
namespace {

// The alias of the first FROM source is bound to the item, or, for `FROM c.m ...` /
// `FROM x IN c.m`, to one member of it: then that member is all the query reads.
class MemberCollector {
 public:
  explicit MemberCollector(int item_alias_slot) : item_alias_slot_(item_alias_slot) {}

  bool whole_item() const { return whole_item_; }
  std::vector<std::string> TakeMembers() { return std::move(members_); }

  void Add(std::string name) { members_.push_back(std::move(name)); }
  void NeedWholeItem() { whole_item_ = true; }
  void WalkExpression(const ast::Expr* expr) { Walk(expr); }

  void WalkQuery(const ast::Query& q, bool top_level) {
    if (whole_item_) return;
    // At the top level, `SELECT *` is the item; in a subquery it is the subquery's
    // own source, which its FROM walks.
    if (top_level && q.select.kind == ast::SelectKind::kStar) NeedWholeItem();
    Walk(q.select.value.get());
    for (const ast::SelectItem& item : q.select.items) Walk(item.expr.get());
    for (size_t i = 0; i < q.from.size(); ++i) {
      const ast::FromSource& source = q.from[i];
      // `(SELECT ...) AS x` and `x IN (SELECT ...)` alike: the body reads the aliases
      // before it, the item alias included; as the first source it reads the item.
      if (ast::IsSubquerySource(source)) {
        if (top_level && i == 0) {
          NeedWholeItem();
        } else {
          WalkQuery(*source.subquery, false);
        }
      } else if (!(top_level && i == 0)) {
        Walk(source.collection.get());
      }
    }
    Walk(q.where.get());
    for (const ast::ExprPtr& key : q.group_by) Walk(key.get());
    for (const ast::SortItem& item : q.order_by) Walk(item.expr.get());
  }

 private:
  void Walk(const ast::Expr* expr) {
    if (expr == nullptr || whole_item_) return;
    switch (expr->kind) {
      case ast::ExprKind::kIdentifier: {
        const int slot = ast::As<ast::IdentifierExpr>(*expr).slot;
        // The item alias used as a value, or the item itself: everything.
        if (slot == item_alias_slot_ || slot == kItemSlot) NeedWholeItem();
        return;
      }
      case ast::ExprKind::kProperty: {
        const auto& property = ast::As<ast::PropertyExpr>(*expr);
        // A computed property may read any member of the item.
        if (property.computed != nullptr) {
          NeedWholeItem();
          return;
        }
        if (IsItemAlias(*property.object)) {
          Add(property.name);
          return;
        }
        break;
      }
      case ast::ExprKind::kSubquery:
        WalkQuery(*ast::As<ast::SubqueryExpr>(*expr).query, false);
        return;
      default:
        break;
    }
    // VisitChildren takes mutable slots; it only reads them here.
    ast::VisitChildren(const_cast<ast::Expr&>(*expr),
                       [this](ast::ExprPtr& child) { Walk(child.get()); });
  }

  bool IsItemAlias(const ast::Expr& expr) const {
    return expr.kind == ast::ExprKind::kIdentifier &&
           ast::As<ast::IdentifierExpr>(expr).slot == item_alias_slot_;
  }

  const int item_alias_slot_;
  bool whole_item_ = false;
  std::vector<std::string> members_;
};

// For `FROM c.m ...` and `FROM x IN c.m`: "m"; for `FROM c`: empty; nullopt when the
// first step is not a constant member name.
std::optional<std::optional<std::string>> FirstStepOfSource(const ast::Expr& collection) {
  const ast::Expr* e = &collection;
  const ast::Expr* first_step = nullptr;
  while (e->kind != ast::ExprKind::kIdentifier) {
    first_step = e;
    e = e->kind == ast::ExprKind::kProperty ? ast::As<ast::PropertyExpr>(*e).object.get()
                                            : ast::As<ast::IndexExpr>(*e).object.get();
  }
  if (first_step == nullptr) return std::optional<std::string>();
  if (first_step->kind != ast::ExprKind::kProperty) return std::nullopt;
  return std::optional<std::string>(ast::As<ast::PropertyExpr>(*first_step).name);
}

}  // namespace

std::optional<std::vector<std::string>> ItemMembersUsed(const BoundQuery& bound) {
  const ast::Query& q = *bound.query;
  // A subquery as the first source names the container itself: its body may read anything.
  if (q.from.empty() || ast::IsSubquerySource(q.from[0])) return std::nullopt;
  const auto first_step = FirstStepOfSource(*q.from[0].collection);
  if (!first_step) return std::nullopt;
  if (*first_step) {
    // The alias holds one member (or its elements); nothing else of the item is
    // reachable, except through identifiers of the item itself, which only the first
    // source may name.
    return std::vector<std::string>{**first_step};
  }
  MemberCollector collector(q.from[0].slot);
  collector.WalkQuery(q, true);
  if (collector.whole_item()) return std::nullopt;
  std::vector<std::string> members = collector.TakeMembers();
  std::sort(members.begin(), members.end());
  members.erase(std::unique(members.begin(), members.end()), members.end());
  return members;
}

bool FiltersOnlyById(const BoundQuery& bound) {
  const ast::Query& q = *bound.query;
  if (q.from.size() != 1 || q.from[0].kind != ast::SourceKind::kCollection ||
      q.from[0].collection->kind != ast::ExprKind::kIdentifier || !q.order_by.empty()) {
    return false;
  }
  if (q.where == nullptr) return true;
  MemberCollector collector(q.from[0].slot);
  collector.WalkExpression(q.where.get());
  if (collector.whole_item()) return false;
  const std::vector<std::string> members = collector.TakeMembers();
  return std::all_of(members.begin(), members.end(),
                     [](const std::string& member) { return member == "id"; });
}

}  // namespace orrery::query
