# Access policy of a documents API, evaluated by hclvm-server for every
# request to POST /eval. The request body supplies two variables:
#
#   user    = { id, email, plan, mfa, roles = [...], teams = [...] }
#   request = { method, path, source_ip }
#
# Each attribute is evaluated on its own against those variables (the
# attributes do not refer to one another), so conditions that several
# answers need are written out in each.

service = "documents"
subject = "${lower(user.email)} (${user.id})"
action = lookup({
  GET = "read", HEAD = "read", POST = "create", PUT = "update", PATCH = "update", DELETE = "delete"
}, request.method, "unknown")

# The team a path /teams/TEAM/... is about; null for other paths.
team = one([for m in regexall("^/teams/([a-z0-9-]+)/", request.path) : m[0]])

# Administrators may do anything; members of a path's team may read it,
# and write to it if they are editors who signed in with MFA.
allow = contains(user.roles, "admin") || (
  anytrue([for t in user.teams : startswith(request.path, "/teams/${t}/")]) && (
    contains(["GET", "HEAD"], request.method) || (contains(user.roles, "editor") && user.mfa)
  )
)

# Which rule decided, for the audit log.
reason = (
  contains(user.roles, "admin") ? "administrator" :
  !anytrue([for t in user.teams : startswith(request.path, "/teams/${t}/")]) ? "not a member of the path's team" :
  contains(["GET", "HEAD"], request.method) ? "team members may read" :
  !contains(user.roles, "editor") ? "writing needs the editor role" :
  user.mfa ? "editors with MFA may write" : "writing needs MFA"
)

rate_limit {
  requests_per_minute = lookup({ free = 60, pro = 600, enterprise = 6000 }, user.plan, 60)
  burst               = max(10, floor(lookup({ free = 60, pro = 600, enterprise = 6000 }, user.plan, 60) / 10))
  key                 = "${user.id}:${request.source_ip}"
}

audit {
  log  = !contains(["GET", "HEAD"], request.method) || contains(user.roles, "admin")
  tags = sort(distinct(concat(
    ["service:documents", "plan:${user.plan}"],
    [for r in user.roles : "role:${r}"],
    [for t in user.teams : "team:${t}"],
  )))
}

quota "storage" {
  gigabytes = lookup({ free = 5, pro = 100, enterprise = 2000 }, user.plan, 5) * max(1, length(user.teams))
}

quota "documents" {
  max_size_mb = user.plan == "free" ? 10 : 250
  versions    = user.plan == "enterprise" ? null : 20
}
