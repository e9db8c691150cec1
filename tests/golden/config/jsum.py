import json,sys,re
txt=open(sys.argv[1]).read()
i=txt.find('$ terraform validate -json')
j=txt[i:].split('\n',1)[1]
j=j[:j.rfind('[exit')]
try:
  d=json.loads(j)
except Exception as e:
  print("NONJSON:", j[:2000]); sys.exit()
print("valid=%s errors=%d warnings=%d"%(d['valid'],d['error_count'],d['warning_count']))
for x in d['diagnostics']:
  r=x.get('range')
  rs="%s:%d,%d-%d,%d"%(r['filename'],r['start']['line'],r['start']['column'],r['end']['line'],r['end']['column']) if r else "-"
  print("- [%s] %s | %s | %s"%(x['severity'],x['summary'],x['detail'].replace('\n','\\n'),rs))
