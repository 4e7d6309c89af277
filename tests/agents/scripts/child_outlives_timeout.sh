# Scripted agent: starts a child that would outlive it, then runs past the deadline.
ws=$1
sleep 600 &
echo $! > "$ws/child.pid"
echo $$ > "$ws/agent.pid"
sleep 600
