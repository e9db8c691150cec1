# Three route blocks as a map of maps: region, then name.

result_type = map(map(string))
result = {
  eu = {
    a = "eu-a"
    b = "eu-b"
  }
  us = {
    a = "us-a"
  }
}
