# A precondition's reference is an edge of the graph: here it closes a cycle.
resource "terraform_data" "c1" {
  lifecycle {
    precondition {
      condition     = terraform_data.c2.output != null
      error_message = "x"
    }
  }
}
resource "terraform_data" "c2" {
  input = terraform_data.c1.output
}
