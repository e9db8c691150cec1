service "web" "extra" {}
