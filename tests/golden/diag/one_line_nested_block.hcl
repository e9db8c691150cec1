block { inner {} }
