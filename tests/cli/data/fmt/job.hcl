job "web" {
count=2
name = "${x}" # c
}
