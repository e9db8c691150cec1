-- wrk script for hclvm-server: every request is POST /eval with the body
-- below, a user and a request as a policy check would send them. The body
-- is fixed so that wrk formats the request once and spends its time on the
-- connection, not in Lua; wrk counts answers other than 200 as
-- "Non-2xx or 3xx responses".
wrk.method = "POST"
wrk.path = "/eval"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[
{"user": {"id": "u-1042", "email": "Ada@Example.com", "plan": "pro", "mfa": true,
          "roles": ["editor", "reviewer"], "teams": ["platform", "billing", "search"]},
 "request": {"method": "PUT", "path": "/teams/platform/docs/runbook",
             "source_ip": "10.1.2.3"}}
]]
