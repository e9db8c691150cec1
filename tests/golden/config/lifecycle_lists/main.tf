# ignore_changes and replace_triggered_by as Terraform decodes them.
resource "terraform_data" "a" {
  count = 2
  lifecycle {
    ignore_changes = ["input", triggers_replace, "x y", input[0].z, "*"]
    replace_triggered_by = [
      terraform_data.b,
      terraform_data.b.output,
      terraform_data.b[count.index],
      var.x,
      terraform_data.b.id == terraform_data.c.id,
      count.value,
    ]
  }
}
resource "terraform_data" "b" {
  lifecycle {
    ignore_changes = ["*"]
    replace_triggered_by = [each.value, local.x]
  }
}
resource "terraform_data" "c" {
  lifecycle {
    ignore_changes = [upper("x")]
    replace_triggered_by = [terraform_data.a.input, count.index]
  }
}
resource "terraform_data" "d" {
  lifecycle {
    replace_triggered_by = [1, each.key]
  }
}
resource "terraform_data" "e" {
  lifecycle {
    replace_triggered_by = [var]
  }
}
