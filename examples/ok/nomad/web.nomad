job "web" {
  datacenters = ["dc1", "dc2"]
  type        = "service"

  update {
    max_parallel     = 2
    min_healthy_time = "10s"
    healthy_deadline = "3m"
    auto_revert      = true
  }

  group "frontend" {
    count = 3

    network {
      port "http" {
        to = 8080
      }
    }

    service {
      name = "web-frontend"
      port = "http"
      tags = ["urlprefix-/"]

      check {
        type     = "http"
        path     = "/healthz"
        interval = "10s"
        timeout  = "2s"
      }
    }

    task "server" {
      driver = "docker"

      config {
        image = "nginx:1.25"
        ports = ["http"]
      }

      # Nomad's own template language uses {{ }}; HCL only sees a heredoc.
      template {
        destination = "local/nginx.conf"
        data        = <<EOF
server {
  listen {{ env "NOMAD_PORT_http" }};
  location / { return 200 "hello from {{ env "NOMAD_ALLOC_ID" }}\n"; }
}
EOF
      }

      resources {
        cpu    = 200
        memory = 128
      }
    }
  }
}
