server {
  listen = port + 1
}
