# The built-in provisioners read with their schemas, and connection blocks with
# the superset of the communicators' arguments (validateProvisioner).
variable "v" {
  default = "x"
}
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command2 = "x"
  }
}
resource "terraform_data" "b" {
  provisioner "local-exec" {
    command     = var.v
    interpreter = "bash"
    environment = { A = 1, B = [1] }
  }
}
resource "terraform_data" "c" {
  provisioner "file" {
    destination = "/tmp/x"
  }
}
resource "terraform_data" "d" {
  provisioner "file" {
    source      = "a"
    content     = "b"
    destination = "/tmp/x"
  }
}
resource "terraform_data" "e" {
  provisioner "remote-exec" {
    inline = ["a"]
    script = "b"
  }
  connection {
    host = "h"
    bogus = 1
  }
}
resource "terraform_data" "f" {
  provisioner "remote-exec" {
  }
}
resource "terraform_data" "h" {
  provisioner "local-exec" {
    command = "ok ${self.id} ${var.nope}"
    connection {
      port = "x"
    }
  }
}
resource "terraform_data" "i" {
  provisioner "local-exec" {
    command = "ok"
    quiet = "maybe"
  }
  provisioner "file" {
    destination = "d"
  }
}
resource "terraform_data" "j" {
  count = 2
  provisioner "local-exec" {
    command = "x ${count.index}"
    working_dir = each.key
  }
}
resource "terraform_data" "k" {
  provisioner "file" {
    source      = "a"
    destination = "b"
    connection {
      host = "h"
      port = 22
    }
  }
  provisioner "remote-exec" {
    scripts = ["a", "b"]
  }
  connection {
    type = "ssh"
    user = var.v
  }
}
resource "terraform_data" "l" {
  input = var.undeclared
  provisioner "local-exec" {
    command = 1
    bogus   = true
  }
  provisioner "local-exec" {
    nothing = 1
  }
}
