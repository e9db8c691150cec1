name      = "web-${region}"
replicas  = 3
memory_mb = 512
first     = port_of("https")
second    = [for p in [1, 2, 3] : p * replicas_hint]

logging {
  level = "info"
}

listener {
  port = 80
}

listener {
  port = port_of("https")
  tls  = true
}

env "HOME" {
  value = "/srv"
}

env "PATH" {
  value = "/usr/bin"
}

tag {
  value = "a"
}

tag {
  value = "a"
}
