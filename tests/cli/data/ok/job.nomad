job "echo" {
  datacenters = ["dc1"]
  group "g" {
    task "t" {
      driver = "docker"
      config {
        image = "hashicorp/http-echo"
        args  = ["-text", "hello"]
      }
    }
  }
}
