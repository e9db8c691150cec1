ids = items[*].id
