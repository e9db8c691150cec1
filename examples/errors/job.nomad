# Deliberate syntax error: a closing brace must end its line.
job "batch" {
  type = "batch"
  group "g" {
    count = 1
  }}
}
