x = <<EOT
%{ for a in b ~}
  ${ a }  text  ${ f( a , b ) }
%{ endfor ~}
EOT
