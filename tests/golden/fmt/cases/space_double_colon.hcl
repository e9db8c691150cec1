a = provider::aws::arn_parse(x)
b = provider :: aws :: f (x)
