region = "${var}"
count=3
tags = {
Name = "x"
  Env="y"
}
