# Settings of a web service, computed from the variables in vars.json.
# Try: hclvm eval examples/eval/app.tf --vars-file examples/eval/vars.json
name     = "${var_env}-web"
replicas = var_env == "prod" ? max(3, length(zones)) : 1
ports    = [for p in base_ports : p + port_offset]
tags     = merge(default_tags, { env = var_env, owner = upper(team) })

service "api" {
  hosts  = [for z in zones : "api.${z}.example.com"]
  health = { path = "/healthz", interval = "${interval_seconds}s" }
}
